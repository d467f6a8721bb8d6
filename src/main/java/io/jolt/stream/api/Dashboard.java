package io.jolt.stream.api;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.NotFoundResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * {@code /dashboard}: the analysts' page, served from the jar and working offline. The page and
 * its script are this project's ({@code src/main/resources/dashboard}); the charts are uPlot's,
 * from its WebJar, at the version the build resolved. Every asset is read once, at start, so a
 * missing one fails the service's start rather than a user's page.
 */
final class Dashboard {
    private static final String UPLOT = "META-INF/resources/webjars/uplot/";

    private record Asset(byte[] bytes, String contentType) {}

    private final Map<String, Asset> assets;

    private Dashboard() {
        String uplot = UPLOT + uplotVersion() + "/dist/";
        this.assets = Map.of(
                "index.html", asset("dashboard/index.html", "text/html; charset=utf-8"),
                "dashboard.js", asset("dashboard/dashboard.js", "text/javascript; charset=utf-8"),
                "dashboard.css", asset("dashboard/dashboard.css", "text/css; charset=utf-8"),
                "uPlot.min.js", asset(uplot + "uPlot.iife.min.js", "text/javascript; charset=utf-8"),
                "uPlot.min.css", asset(uplot + "uPlot.min.css", "text/css; charset=utf-8"));
    }

    /** Mounts the page and its files, each handler as {@code guarded} wraps it (the analytics role's check). */
    static void routes(Javalin app, UnaryOperator<Handler> guarded) {
        Dashboard dashboard = new Dashboard();
        app.get("/dashboard", guarded.apply(ctx -> dashboard.serve(ctx, "index.html")));
        app.get("/dashboard/{file}", guarded.apply(ctx -> dashboard.serve(ctx, ctx.pathParam("file"))));
    }

    private void serve(Context ctx, String name) {
        Asset asset = assets.get(name);
        if (asset == null) {
            throw new NotFoundResponse("no dashboard file " + name);
        }
        ctx.contentType(asset.contentType).header("Cache-Control", "no-cache").result(asset.bytes);
    }

    /** The WebJar's version, from the Maven metadata it ships, so that upgrading uPlot is a pom change alone. */
    private static String uplotVersion() {
        Properties pom = new Properties();
        try (InputStream in = resource("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pom.getProperty("version");
    }

    private static Asset asset(String path, String contentType) {
        try (InputStream in = resource(path)) {
            return new Asset(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream resource(String path) {
        InputStream in = Dashboard.class.getClassLoader().getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException("the dashboard's " + path + " is not on the classpath");
        }
        return in;
    }
}
