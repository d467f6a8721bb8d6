// The conflicts dashboard: polls /v1/analytics/* every two seconds and draws with uPlot.
// Every chart keeps a data-points attribute (points drawn) and every number a data-value
// (the API's figure), so that a browser test can compare what is shown with what the API says.
"use strict";

const REFRESH_MS = 2000;
const INGEST_SAMPLES = 150;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#475569"];
// Values every provider has, drawn even when zero so that a chart's lines do not come and go.
const KNOWN = {
  kind: ["CONCURRENT_HEADS", "EQUIVOCATION", "AUTHORITY_FORK"],
  loss: ["LOST", "DEGRADED_DURABILITY"],
  compaction: ["HELD_BOUND", "FORK_SWITCH", "SUPERSEDED_RETENTION"],
  rejection: [],
};
// The dimensions the range's charts draw.
const CHARTED = ["kind", "rejection", "loss", "compaction"];
// The top-N tables, each over the range shown.
const TABLES = ["top-identities", "top-paths", "top-devices", "top-equivocators"];
// The ranges a reader can pick, smallest first, each in the API's windows that give it enough
// points: ten seconds for five minutes (a demo's whole run; they are kept an hour), minutes up to
// six hours (kept two days), hours for two days (2,880 minutes would be more points than a chart
// has pixels).
const RANGES = [
  { name: "5m", label: "5 minutes", window: "10s", bucket: 10 * SECOND, buckets: 30, unit: "10 seconds" },
  { name: "15m", label: "15 minutes", window: "1m", bucket: MINUTE, buckets: 15, unit: "minute" },
  { name: "1h", label: "hour", window: "1m", bucket: MINUTE, buckets: 60, unit: "minute" },
  { name: "6h", label: "6 hours", window: "1m", bucket: MINUTE, buckets: 360, unit: "minute" },
  { name: "2d", label: "2 days", window: "1h", bucket: HOUR, buckets: 48, unit: "hour" },
];

const charts = {};
const ingest = [];
// What the charts and tables show: the range the reader picked or, until they pick one, the
// smallest range holding all the data.
let pickedRange = null;
let shownRange = RANGES[0];
// Tick labels are measured off-screen, in the font the axes draw them with.
const measuring = document.createElement("canvas").getContext("2d");

async function json(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) {
    throw new Error(url + " answered " + response.status);
  }
  return response.json();
}

function sum(series, field) {
  return series.reduce((total, s) => total + s.points.reduce((t, p) => t + p[field], 0), 0);
}

function eventsOf(series, value) {
  const s = series.find(x => x.value === value);
  return s ? sum([s], "events") : 0;
}

function showNumber(id, value) {
  const el = document.getElementById(id);
  el.dataset.value = String(value);
  el.textContent = value.toLocaleString("en-US");
}

/** The windows a range draws, ending with the one holding now, as the API's from and to. */
function spanOf(range, now) {
  const last = Math.floor(now / range.bucket) * range.bucket;
  return { from: last - (range.buckets - 1) * range.bucket, to: now };
}

function countsUrl(window, by, span) {
  return "/v1/analytics/conflicts?window=" + window + "&by=" + by + "&from=" + span.from + "&to=" + span.to;
}

/** Every charted dimension's counts over a range: { kind: answer, rejection: answer, ... }. */
async function rangeCounts(range, now) {
  const span = spanOf(range, now);
  const answers = await Promise.all(CHARTED.map(by => json(countsUrl(range.window, by, span))));
  return Object.fromEntries(CHARTED.map((by, i) => [by, answers[i]]));
}

/**
 * Whether a range's windows hold every event the totals count. The totals are read first, so
 * while events flow the range may hold more; windows leave out events later than their grace.
 */
function holdsAll(counts, totals) {
  return CHARTED.every(by => sum(counts[by].series, "events") >= sum(totals[by].series, "events"));
}

/**
 * The range to draw and its counts. Data only ages, so the smallest range holding it never
 * shrinks: the search starts at the range shown, and ends at the largest, which is the best
 * there is when no range holds everything.
 */
async function rangeToDraw(totals, now) {
  if (pickedRange) {
    return { range: pickedRange, counts: await rangeCounts(pickedRange, now) };
  }
  for (const range of RANGES.slice(RANGES.indexOf(shownRange))) {
    const counts = await rangeCounts(range, now);
    if (holdsAll(counts, totals) || range === RANGES[RANGES.length - 1]) {
      return { range: range, counts: counts };
    }
  }
}

function showRange(range) {
  shownRange = range;
  document.getElementById("range").value = range.name;
  document.querySelectorAll(".unit").forEach(el => { el.textContent = range.unit; });
  document.querySelectorAll(".range-label").forEach(el => { el.textContent = "last " + range.label; });
}

/** Window starts across the answer's range, zero-filled: [xs in seconds, values per series]. */
function windowGrid(answer, range, values, field) {
  const first = Math.floor(answer.from / range.bucket) * range.bucket;
  const last = Math.floor(answer.to / range.bucket) * range.bucket;
  const xs = [];
  for (let t = first; t <= last; t += range.bucket) {
    xs.push(t / 1000);
  }
  const index = new Map(xs.map((x, i) => [x * 1000, i]));
  const columns = values.map(value => {
    const ys = new Array(xs.length).fill(0);
    const s = answer.series.find(x => x.value === value);
    (s ? s.points : []).forEach(p => {
      const i = index.get(p.start);
      if (i !== undefined) {
        ys[i] = p[field];
      }
    });
    return ys;
  });
  return [xs, columns];
}

function valuesOf(by, answer) {
  const values = new Set(KNOWN[by]);
  answer.series.forEach(s => values.add(s.value));
  return values.size ? [...values] : ["none"];
}

function sourceLink(id, href) {
  document.querySelector("#" + id + " a.source").href = href;
}

/**
 * A y axis's width from its widest tick label, so that no label is cut at the chart's edge
 * (uPlot's default is a fixed 50 px, which cuts "10,000" to "0,000").
 */
function tickLabelsWidth(plot, values, axisIndex) {
  const axis = plot.axes[axisIndex];
  measuring.font = axis.font[0];
  const widest = Math.max(0, ...(values || []).map(v => measuring.measureText(v).width / uPlot.pxRatio));
  // A pixel to spare for anti-aliasing at the canvas's edge.
  return Math.ceil(axis.ticks.size + axis.gap + widest + 1);
}

/** Creates the chart, or recreates it when its series changed; then sets its data. */
function draw(id, labels, data, options) {
  const el = document.getElementById(id);
  const key = labels.join("|");
  let chart = charts[id];
  if (!chart || chart.key !== key) {
    if (chart) {
      chart.plot.destroy();
    }
    const series = [{}].concat(labels.map((label, i) => Object.assign(
        { label: label, stroke: COLORS[i % COLORS.length], width: 1.5, points: { size: 4 } }, (options.series || {})[label] || {})));
    const axes = (options.axes || [{}, {}]).map((axis, i) => i === 0 ? axis : Object.assign({ size: tickLabelsWidth }, axis));
    const plot = new uPlot({
      width: Math.max(el.clientWidth - 16, 280),
      height: 200,
      series: series,
      scales: Object.assign({ x: { time: true } }, options.scales || {}),
      axes: axes,
      cursor: { drag: { x: false, y: false } },
      legend: { live: false },
    }, data, el);
    chart = charts[id] = { plot: plot, key: key };
    if (options.onClick) {
      plot.over.addEventListener("click", () => {
        const i = plot.cursor.idx;
        if (i !== null && i !== undefined) {
          options.onClick(plot.data[0][i] * 1000);
        }
      });
    }
  } else {
    chart.plot.setData(data);
  }
  const drawn = data.slice(1).reduce((n, ys) => n + ys.filter(y => y !== null && y !== undefined).length, 0);
  el.dataset.points = String(drawn);
}

function rangeChart(id, range, answer, onClick) {
  const values = valuesOf(answer.by, answer);
  const [xs, columns] = windowGrid(answer, range, values, "events");
  sourceLink(id, countsUrl(answer.window, answer.by, answer));
  draw(id, values, [xs].concat(columns), { onClick: onClick });
}

function clockChart(range, kinds) {
  const values = valuesOf("kind", kinds);
  const [xs, events] = windowGrid(kinds, range, values, "events");
  const [, sensitive] = windowGrid(kinds, range, values, "clock_sensitive");
  const share = xs.map((_, i) => {
    const all = events.reduce((n, ys) => n + ys[i], 0);
    return all === 0 ? null : 100 * sensitive.reduce((n, ys) => n + ys[i], 0) / all;
  });
  sourceLink("chart-clock", countsUrl(kinds.window, "kind", kinds));
  // Points always: a share exists only in windows with conflicts, and a lone window has no line to draw.
  draw("chart-clock", ["clock sensitive %"], [xs, share], {
    series: { "clock sensitive %": { points: { show: true, size: 6, fill: COLORS[0] } } },
    scales: { y: { range: [0, 100] } },
  });
}

async function ingestChart() {
  const sample = await json("/v1/analytics/pipeline");
  ingest.push(sample);
  if (ingest.length > INGEST_SAMPLES) {
    ingest.shift();
  }
  const xs = ingest.map(s => s.time / 1000);
  const rate = ingest.map((s, i) => i === 0 ? null
      : Math.max(0, (s.verified_entries - ingest[i - 1].verified_entries) * 1000 / Math.max(1, s.time - ingest[i - 1].time)));
  const lag = ingest.map(s => s.input_lag);
  draw("chart-ingest", ["entries/s", "input lag"], [xs, rate, lag], {
    series: { "input lag": { scale: "lag" } },
    scales: { lag: {} },
    axes: [{}, { label: "entries/s" }, { scale: "lag", side: 1, label: "records", grid: { show: false } }],
  });
  return sample;
}

/**
 * What a table's row names, and the identity it belongs to (null for paths). The API names a
 * device identity/device_id, since device ids are scoped by their identity; the row shows the
 * device id, and the identity on hover and in the link.
 */
function nameOf(what, value) {
  if (what === "devices" || what === "equivocators") {
    const slash = value.indexOf("/");
    return { text: value.substring(slash + 1), identity: value.substring(0, slash) };
  }
  return { text: value, identity: what === "identities" ? value : null };
}

function nameCell(what, value) {
  const name = nameOf(what, value);
  const label = document.createElement(name.identity === null ? "span" : "a");
  label.textContent = name.text;
  if (name.identity !== null) {
    label.href = "/v1/identities/" + encodeURIComponent(name.identity) + "/conflicts";
    label.title = name.identity;
  }
  const cell = document.createElement("td");
  cell.appendChild(label);
  if (name.identity !== null && name.identity !== name.text) {
    // Device ids repeat across identities (every one has its dev_a): the start of its identity tells rows apart.
    const owner = document.createElement("small");
    owner.textContent = name.identity.substring(0, 12) + "\u2026";
    cell.appendChild(owner);
  }
  return cell;
}

function fillTable(id, what, ranked) {
  const el = document.getElementById(id);
  el.querySelector("tbody").replaceChildren(...ranked.map(r => {
    const row = document.createElement("tr");
    const events = document.createElement("td");
    events.textContent = r.events.toLocaleString("en-US");
    const sensitive = document.createElement("td");
    sensitive.textContent = r.clock_sensitive ? r.clock_sensitive.toLocaleString("en-US") : "";
    row.append(nameCell(what, r.value), events, sensitive);
    return row;
  }));
  el.dataset.rows = String(ranked.length);
}

function topUrl(window, what, span) {
  return "/v1/analytics/top?window=" + window + "&n=10&what=" + what + "&from=" + span.from + "&to=" + span.to;
}

async function topAnswers(range, now) {
  return Promise.all(TABLES.map(id => json(topUrl(range.window, document.getElementById(id).dataset.what, spanOf(range, now)))));
}

function topTable(id, answer) {
  sourceLink(id, topUrl(answer.window, answer.what, answer));
  fillTable(id, answer.what, answer.top);
}

/** Lists the identities behind a window of the conflicts chart, in the windows the chart is drawn in. */
async function drill(windowStart) {
  const range = shownRange;
  const answer = await json("/v1/analytics/top?window=" + range.window + "&n=20&what=identities&from=" + windowStart + "&to=" + windowStart);
  const start = new Date(windowStart);
  document.getElementById("drill-minute").textContent = range.unit === "hour"
      ? start.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : start.toLocaleTimeString("en-GB");
  fillTable("drill", "identities", answer.top);
}

/** Every charted dimension's running totals: { kind: answer, rejection: answer, ... }. */
async function totalCounts() {
  const answers = await Promise.all(CHARTED.map(by => json("/v1/analytics/conflicts?window=total&by=" + by)));
  return Object.fromEntries(CHARTED.map((by, i) => [by, answers[i]]));
}

function showTotals(totals) {
  showNumber("n-conflicts", sum(totals.kind.series, "events"));
  showNumber("n-clock-sensitive", sum(totals.kind.series, "clock_sensitive"));
  showNumber("n-equivocations", eventsOf(totals.kind.series, "EQUIVOCATION"));
  showNumber("n-authority-forks", eventsOf(totals.kind.series, "AUTHORITY_FORK"));
  showNumber("n-rejections", sum(totals.rejection.series, "events"));
  showNumber("n-losses", eventsOf(totals.loss.series, "LOST"));
  showNumber("n-degraded", eventsOf(totals.loss.series, "DEGRADED_DURABILITY"));
  showNumber("n-compactions", sum(totals.compaction.series, "events"));
}

async function refresh() {
  const status = document.getElementById("status");
  const picked = pickedRange;
  try {
    const [pipeline, totals] = await Promise.all([ingestChart(), totalCounts()]);
    // The service's clock, not the browser's, places the range: the windows are the service's.
    const now = pipeline.time;
    const { range, counts } = await rangeToDraw(totals, now);
    const tops = await topAnswers(range, now);
    // A range picked meanwhile is drawn by the refresh its pick started; this one would draw the old range over it.
    if (picked === pickedRange) {
      showRange(range);
      rangeChart("chart-kinds", range, counts.kind, drill);
      clockChart(range, counts.kind);
      rangeChart("chart-rejections", range, counts.rejection);
      rangeChart("chart-losses", range, counts.loss);
      rangeChart("chart-compactions", range, counts.compaction);
      TABLES.forEach((id, i) => topTable(id, tops[i]));
    }
    showTotals(totals);
    showNumber("n-verified", pipeline.verified_entries);
    showNumber("n-lag", pipeline.input_lag);
    status.textContent = "updated " + new Date(pipeline.time).toLocaleTimeString("en-GB") + " · "
        + totals.kind.instances + (totals.kind.instances === 1 ? " instance" : " instances");
    status.classList.remove("failing");
  } catch (e) {
    status.textContent = "not updated: " + e.message + " (retrying)";
    status.classList.add("failing");
  } finally {
    document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
  }
}

async function poll() {
  await refresh();
  setTimeout(poll, REFRESH_MS);
}

function rangeSelector() {
  const select = document.getElementById("range");
  select.replaceChildren(...RANGES.map(r => new Option(r.label, r.name)));
  select.addEventListener("change", () => {
    pickedRange = RANGES.find(r => r.name === select.value);
    refresh();
  });
}

window.addEventListener("resize", () => Object.keys(charts).forEach(id => {
  const el = document.getElementById(id);
  charts[id].plot.setSize({ width: Math.max(el.clientWidth - 16, 280), height: 200 });
}));

rangeSelector();
poll();
