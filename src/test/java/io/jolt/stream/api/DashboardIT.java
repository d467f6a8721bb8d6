package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.DeviceId;
import io.jolt.stream.protocol.IdentityId;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.Executables;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.testing.Waiting;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;

/**
 * The dashboard in a real browser (headless Chromium, Debian's chromium and chromium-driver)
 * against a service on a real broker fed, while the page is open, a little data stamped twenty
 * minutes ago and then the demo's workload: it updates by itself, shows the smallest range
 * holding the data and redraws over the range a reader picks, every chart draws points, no tick
 * label is cut at a chart's edge, every number shown is the API's, the tables name devices by
 * their ids and link to the identities' conflicts, a click on a minute shows the identities
 * behind it, all of it is served by the service itself, and the browser's console stays free of
 * errors.
 */
@ExtendWith(RealKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String APP = "jolt-it-dashboard";
    static final List<String> CHARTS = List.of("chart-kinds", "chart-clock", "chart-rejections", "chart-losses", "chart-compactions", "chart-ingest");
    static final String INSTALL = "install Chromium and its driver (Debian: apt-get install chromium chromium-driver)";
    /** How long before the workload the earlier data is stamped: past the two smallest ranges (5 and 15 minutes), within the next (an hour). */
    static final Duration EARLIER = Duration.ofMinutes(20);
    final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);
    JoltNode node;
    ChromeDriver browser;
    int refreshesBeforeIngest;

    @BeforeAll
    void openTheDashboardThenFeedTheService(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        node = JoltNode.start(harness.config(APP, StreamHarness.tempStateDir("dashboard"), 2).with(JoltNode.HTTP_PORT, "0"), registry)
                .awaitRunning(Duration.ofSeconds(60));
        browser = chromium();
        browser.get(node.baseUrl() + "/dashboard");
        await("the first refresh", () -> refreshes() >= 1);
        refreshesBeforeIngest = refreshes();

        // Four identities, the fourth with bad records, counted in full before the workload: later
        // records would make these late for their minutes, which would then leave them out.
        long earlier = System.currentTimeMillis() - EARLIER.toMillis();
        harness.produceRaw(stampedAt(earlier, VectorRecords.ofRecords(records(Workload.generate(new Workload.Shape(4, 3, 10, 22), n -> { })), registry)));
        harness.awaitProcessed(APP, Duration.ofSeconds(120));
        await("the earlier counts settled", this::countsSettled);

        harness.produce(VectorRecords.ofRecords(records(Workload.generate(new Workload.Shape(150, 3, 10, 21), n -> { })), registry));
        harness.awaitProcessed(APP, Duration.ofSeconds(120));
        await("the counts settled", this::countsSettled);
        await("the page caught up with the API", () -> shownEqualsApi().isEmpty());
        Path screenshot = Path.of("target", "dashboard.png");
        Files.createDirectories(screenshot.getParent());
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), screenshot, StandardCopyOption.REPLACE_EXISTING);
    }

    static List<Object> records(Workload.Generated workload) {
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        return records;
    }

    static List<ProducerRecord<String, byte[]>> stampedAt(long timestamp, List<VectorRecords> records) {
        return records.stream().map(r -> new ProducerRecord<>(r.topic(), null, timestamp, r.key(), r.value())).toList();
    }

    static ChromeDriver chromium() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(Executables.require("jolt.chromium", List.of("chromium", "chromium-browser"), INSTALL).toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1500");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // The driver named explicitly: Selenium Manager would otherwise try to download one.
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(
                Executables.require("jolt.chromedriver", List.of("chromedriver"), INSTALL).toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void thePageUpdatesItselfAsTheServiceCounts() {
        assertThat(refreshes()).isGreaterThan(refreshesBeforeIngest);
        assertThat(Long.parseLong(shown("n-conflicts"))).isPositive();
        assertThat(browser.findElement(By.id("status")).getText()).matches("updated \\d\\d:\\d\\d:\\d\\d · 1 instance");
    }

    @Test
    void everyChartDrawsDataPoints() throws Exception {
        await("the ingest chart has samples since the workload", () -> points("chart-ingest") >= 4);
        for (String chart : CHARTS) {
            assertThat(points(chart)).as(chart + " data points").isPositive();
            assertThat(coloredPixels(chart)).as(chart + " drawn series").isGreaterThan(20);
        }
        Number peak = (Number) js().executeScript("return Math.max(...charts['chart-ingest'].plot.data[1].filter(v => v !== null));");
        assertThat(peak.doubleValue()).as("the ingest rate while the workload ran").isPositive();
    }

    @Test
    void theRangeShownIsTheSmallestHoldingAllTheData() throws Exception {
        Select range = new Select(browser.findElement(By.id("range")));
        assertThat(range.getOptions()).extracting(o -> o.getAttribute("value")).containsExactly("5m", "15m", "1h", "6h", "2d");
        // Opened before any data, the page followed it: five and fifteen minutes do not hold data from twenty minutes ago, an hour does.
        assertThat(range.getFirstSelectedOption().getAttribute("value")).isEqualTo("1h");
        assertThat(windows("chart-kinds")).isEqualTo(new Windows(60, Duration.ofMinutes(1)));
    }

    @Test
    void aPageOpenedOnTheDataStartsOnTheSmallestRangeHoldingItAndRedrawsOverTheRangePicked() throws Exception {
        String dashboard = browser.getWindowHandle();
        browser.switchTo().newWindow(WindowType.TAB).get(node.baseUrl() + "/dashboard");
        try {
            await("the new page's first refresh", () -> refreshes() >= 1);
            Select range = new Select(browser.findElement(By.id("range")));
            assertThat(range.getFirstSelectedOption().getAttribute("value")).isEqualTo("1h");
            assertThat(windows("chart-kinds")).isEqualTo(new Windows(60, Duration.ofMinutes(1)));

            range.selectByValue("2d");
            await("2 days drawn, by the hour", () -> windows("chart-rejections").equals(new Windows(48, Duration.ofHours(1))));
            assertThat(browser.findElement(By.cssSelector("#chart-kinds figcaption")).getText()).startsWith("Conflicts per hour");

            range.selectByValue("5m");
            await("5 minutes drawn, by ten seconds", () -> windows("chart-rejections").equals(new Windows(30, Duration.ofSeconds(10))));
            assertThat(browser.findElement(By.cssSelector("#chart-kinds figcaption")).getText()).startsWith("Conflicts per 10 seconds");

            range.selectByValue("15m");
            await("15 minutes drawn", () -> windows("chart-rejections").equals(new Windows(15, Duration.ofMinutes(1))));
            assertThat(browser.findElement(By.cssSelector("#top-devices small")).getText()).isEqualTo("last 15 minutes");
            // Picked, a range stays, though it does not hold the earlier data: the page follows the data only until a reader picks.
            int picked = refreshes();
            await("two refreshes since the pick", () -> refreshes() >= picked + 2);
            assertThat(range.getFirstSelectedOption().getAttribute("value")).isEqualTo("15m");
            assertThat(windows("chart-rejections")).isEqualTo(new Windows(15, Duration.ofMinutes(1)));
        } finally {
            browser.close();
            browser.switchTo().window(dashboard);
        }
    }

    @Test
    void noTickLabelIsCutAtAChartsEdge() {
        for (String chart : CHARTS) {
            assertThat(textCutByTheCanvas(chart, 1)).as(chart + ": text drawn past the canvas's edges").isEmpty();
        }
        // Counts in the tens of millions: the widest labels the axis has to make room for.
        assertThat(textCutByTheCanvas("chart-rejections", 100_000)).as("tick labels of tens of millions").isEmpty();
    }

    @Test
    void aScreenshotIsWrittenUnderTarget() throws Exception {
        assertThat(Files.size(Path.of("target", "dashboard.png"))).isGreaterThan(10_000);
    }

    @Test
    void theNumbersShownAreTheApis() throws Exception {
        assertThat(shownEqualsApi()).isEmpty();
        assertThat(Long.parseLong(shown("n-rejections"))).isPositive();
        assertThat(Long.parseLong(shown("n-equivocations"))).isPositive();
    }

    @Test
    void theTopTablesAreTheApisOverTheRangeShown() throws Exception {
        for (String what : List.of("identities", "paths", "devices", "equivocators")) {
            JsonNode top = api(source("top-" + what)).get("top");
            await(what + " table", () -> rows("top-" + what).size() == top.size());
            List<Row> expected = new ArrayList<>();
            top.forEach(r -> expected.add(Row.of(what, r.get("value").asText(), r.get("events").asLong())));
            assertThat(rows("top-" + what)).as(what).isEqualTo(expected).isNotEmpty();
        }
    }

    @Test
    void deviceColumnsShowDeviceIdsWithTheirIdentityOnHoverAndLinkToItsConflicts() throws Exception {
        for (String table : List.of("top-devices", "top-equivocators")) {
            assertThat(rows(table)).as(table).isNotEmpty().allSatisfy(row -> {
                assertThat(DeviceId.isValid(row.name())).as(row + " names a device id").isTrue();
                assertThat(IdentityId.isWellFormed(row.title())).as(row + " has its identity on hover").isTrue();
            });
            assertThat(links(table)).as(table).isNotEmpty()
                    .allSatisfy(link -> assertThat(link.href()).isEqualTo(node.baseUrl() + "/v1/identities/" + link.title() + "/conflicts"));
        }
        String identity = rows("top-devices").get(0).title();
        String first = node.baseUrl() + "/v1/identities/" + identity + "/conflicts";
        HttpResponse<String> conflicts = http.send(HttpRequest.newBuilder(URI.create(first)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(conflicts.statusCode()).isEqualTo(200);
        assertThat(conflicts.body()).contains(identity);
    }

    @Test
    void aClickOnAMinuteShowsTheIdentitiesBehindIt() throws Exception {
        // The minute with the most conflicts, and where the chart draws it.
        Map<?, ?> busiest = (Map<?, ?>) js().executeScript("""
                const plot = charts['chart-kinds'].plot;
                let best = 0, most = -1;
                plot.data[0].forEach((x, i) => {
                  const n = plot.data.slice(1).reduce((s, ys) => s + ys[i], 0);
                  if (n > most) { most = n; best = i; }
                });
                const over = plot.over.getBoundingClientRect();
                return {start: plot.data[0][best] * 1000, x: plot.valToPos(plot.data[0][best], 'x'), width: over.width, height: over.height};
                """);
        long start = ((Number) busiest.get("start")).longValue();
        double half = ((Number) busiest.get("width")).doubleValue() / 2;
        // Offsets are from the plot's centre; the current minute is drawn on its right edge, so stay just inside.
        int dx = (int) Math.round(Math.max(-half + 2, Math.min(half - 2, ((Number) busiest.get("x")).doubleValue() - half)));
        new Actions(browser).moveToElement(browser.findElement(By.cssSelector("#chart-kinds .u-over")), dx, 0).click().perform();
        JsonNode behind = api("/v1/analytics/top?window=1m&n=20&what=identities&from=" + start + "&to=" + start).get("top");
        assertThat(behind.size()).isPositive();
        await("the identities behind the minute", () -> rows("drill").size() == behind.size(),
                () -> browser.findElement(By.id("drill-minute")).getText() + " / " + browser.findElement(By.id("status")).getText() + " / " + busiest);
        List<Row> expected = new ArrayList<>();
        behind.forEach(r -> expected.add(Row.of("identities", r.get("value").asText(), r.get("events").asLong())));
        assertThat(rows("drill")).isEqualTo(expected);
    }

    @Test
    void everythingIsServedByTheServiceItselfAndTheConsoleHasNoErrors() throws Exception {
        @SuppressWarnings("unchecked")
        List<String> resources = (List<String>) js().executeScript("return performance.getEntriesByType('resource').map(e => e.name);");
        assertThat(resources).isNotEmpty().allSatisfy(url -> assertThat(url).startsWith(node.baseUrl() + "/"));
        List<String> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue()).map(LogEntry::toString).toList();
        assertThat(errors).isEmpty();
        HttpResponse<String> missing = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + "/dashboard/nothing.js")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    /** The numbers whose shown value differs from the API's, with both. */
    Map<String, String> shownEqualsApi() throws Exception {
        Map<String, Long> kinds = totals("kind");
        Map<String, Long> losses = totals("loss");
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("n-conflicts", kinds.values().stream().mapToLong(Long::longValue).sum());
        expected.put("n-clock-sensitive", sensitiveTotal());
        expected.put("n-equivocations", kinds.getOrDefault("EQUIVOCATION", 0L));
        expected.put("n-authority-forks", kinds.getOrDefault("AUTHORITY_FORK", 0L));
        expected.put("n-rejections", totals("rejection").values().stream().mapToLong(Long::longValue).sum());
        expected.put("n-losses", losses.getOrDefault("LOST", 0L));
        expected.put("n-degraded", losses.getOrDefault("DEGRADED_DURABILITY", 0L));
        expected.put("n-compactions", totals("compaction").values().stream().mapToLong(Long::longValue).sum());
        expected.put("n-verified", api("/v1/analytics/pipeline").get("verified_entries").asLong());
        expected.put("n-lag", 0L);
        Map<String, String> differing = new LinkedHashMap<>();
        expected.forEach((id, value) -> {
            String shown = shown(id);
            if (!shown.equals(String.valueOf(value)) || !browser.findElement(By.id(id)).getText().equals(String.format("%,d", value))) {
                differing.put(id, "shown " + shown + ", API " + value);
            }
        });
        return differing;
    }

    /** Conflicts and rejections counted, and no longer changing, with no input left to process. */
    boolean countsSettled() throws Exception {
        List<Map<String, Long>> before = List.of(totals("kind"), totals("rejection"));
        Thread.sleep(1500);
        return before.stream().noneMatch(Map::isEmpty) && before.equals(List.of(totals("kind"), totals("rejection")))
                && api("/v1/analytics/pipeline").get("input_lag").asLong() == 0;
    }

    Map<String, Long> totals(String by) throws Exception {
        Map<String, Long> out = new LinkedHashMap<>();
        api("/v1/analytics/conflicts?window=total&by=" + by).get("series")
                .forEach(s -> s.get("points").forEach(p -> out.merge(s.get("value").asText(), p.get("events").asLong(), Long::sum)));
        return out;
    }

    long sensitiveTotal() throws Exception {
        long sum = 0;
        for (JsonNode s : api("/v1/analytics/conflicts?window=total&by=kind").get("series")) {
            for (JsonNode p : s.get("points")) {
                sum += p.get("clock_sensitive").asLong();
            }
        }
        return sum;
    }

    JsonNode api(String pathAndQuery) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(pathAndQuery + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** A table's row: the name shown, its events as the page formats them, and the name's title (null without). */
    record Row(String name, String events, String title) {
        /** The row of a top-N value as the page shows it: a device (identity/device_id) by its id with its identity on hover, an identity with itself. */
        static Row of(String what, String value, long events) {
            String count = String.format("%,d", events);
            int slash = value.indexOf('/');
            return switch (what) {
                case "devices", "equivocators" -> new Row(value.substring(slash + 1), count, value.substring(0, slash));
                case "identities" -> new Row(value, count, value);
                default -> new Row(value, count, null);
            };
        }
    }

    /** A table's rows (read at once: the page replaces them as it refreshes). */
    List<Row> rows(String table) {
        @SuppressWarnings("unchecked")
        List<List<String>> rows = (List<List<String>>) js().executeScript("""
                return [...document.querySelectorAll('#' + arguments[0] + ' tbody tr')].map(tr => {
                  const name = tr.cells[0].firstElementChild;
                  return [name.textContent, tr.cells[1].textContent, name.title || null];
                });
                """, table);
        return rows.stream().map(r -> new Row(r.get(0), r.get(1), r.get(2))).toList();
    }

    record Link(String title, String href) {}

    /** The links of a table's rows. */
    List<Link> links(String table) {
        @SuppressWarnings("unchecked")
        List<List<String>> links = (List<List<String>>) js().executeScript(
                "return [...document.querySelectorAll('#' + arguments[0] + ' tbody tr a')].map(a => [a.title, a.href]);", table);
        return links.stream().map(l -> new Link(l.get(0), l.get(1))).toList();
    }

    /** The API answer a chart or table shows, as its title links to it. */
    String source(String id) {
        return browser.findElement(By.cssSelector("#" + id + " a.source")).getDomAttribute("href");
    }

    /** How many windows a chart draws, and their size. */
    record Windows(int count, Duration size) {}

    Windows windows(String chart) {
        @SuppressWarnings("unchecked")
        List<Number> xs = (List<Number>) js().executeScript("const xs = charts[arguments[0]].plot.data[0]; return [xs.length, xs[1] - xs[0]];", chart);
        return new Windows(xs.get(0).intValue(), Duration.ofSeconds(xs.get(1).longValue()));
    }

    /**
     * The text a chart draws past its canvas's edges, redrawn with its counts times {@code scale}
     * (then redrawn as it was). uPlot draws ticks and axis titles on the canvas, so each fillText
     * is caught and its box, as measured and transformed, compared with the canvas.
     */
    @SuppressWarnings("unchecked")
    List<String> textCutByTheCanvas(String chart, long scale) {
        return (List<String>) js().executeScript("""
                const plot = charts[arguments[0]].plot, scale = arguments[1], ctx = plot.ctx, canvas = ctx.canvas;
                const cut = [];
                ctx.fillText = (text, x, y) => {
                  const m = ctx.measureText(text), t = ctx.getTransform();
                  const xs = [x - m.actualBoundingBoxLeft, x + m.actualBoundingBoxRight], ys = [y - m.actualBoundingBoxAscent, y + m.actualBoundingBoxDescent];
                  const corners = xs.flatMap(cx => ys.map(cy => t.transformPoint(new DOMPoint(cx, cy))));
                  if (corners.some(p => p.x < 0 || p.y < 0 || p.x > canvas.width || p.y > canvas.height)) {
                    cut.push(text);
                  }
                  CanvasRenderingContext2D.prototype.fillText.call(ctx, text, x, y);
                };
                const data = plot.data;
                try {
                  plot.batch(() => plot.setData(data.map((ys, i) => i === 0 ? ys : ys.map(y => y === null ? null : y * scale))));
                } finally {
                  delete ctx.fillText;
                  plot.batch(() => plot.setData(data));
                }
                return cut;
                """, chart, scale);
    }

    String shown(String id) {
        return browser.findElement(By.id(id)).getAttribute("data-value");
    }

    int points(String chart) {
        return Integer.parseInt(browser.findElement(By.id(chart)).getAttribute("data-points"));
    }

    int refreshes() {
        String value = browser.findElement(By.tagName("body")).getAttribute("data-refreshes");
        return value == null ? 0 : Integer.parseInt(value);
    }

    /** Pixels of a chart's canvas in a series colour: axes and grid are grey, so these are the series drawn. */
    long coloredPixels(String chart) {
        return ((Number) js().executeScript("""
                const canvas = document.querySelector('#' + arguments[0] + ' canvas');
                const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                let colored = 0;
                for (let i = 0; i < pixels.length; i += 4) {
                  const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2], a = pixels[i + 3];
                  if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 80) colored++;
                }
                return colored;
                """, chart)).longValue();
    }

    JavascriptExecutor js() {
        return browser;
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    static void await(String what, Condition condition) throws Exception {
        await(what, condition, () -> "");
    }

    static void await(String what, Condition condition, Supplier<String> state) throws Exception {
        Waiting.await(what).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(condition.holds()).as(() -> "within 60 s: " + what + " " + state.get()).isTrue());
    }
}
