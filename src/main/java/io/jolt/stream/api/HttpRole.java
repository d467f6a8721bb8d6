package io.jolt.stream.api;

import java.util.Locale;

/**
 * What a route of the HTTP API is for, and so who may use it ({@link HttpAccess}): each role is
 * open or closed by its own setting, {@code jolt.http.access.ROLE}, and let into by its own
 * credentials, {@code jolt.http.auth.ROLE.token} and {@code jolt.http.auth.ROLE.basic}, besides
 * the shared ones. The OpenAPI document names every operation's role ({@code x-jolt-role});
 * health, the probes, {@code /openapi.json} and the read-only schema registry have none: they are
 * always open ({@code public} there).
 */
public enum HttpRole {
    /** {@code POST /v1/records}. Closed by default (when any credential is configured). */
    INGEST(HttpAccess.Mode.CLOSED),
    /** {@code POST /jolt/device-writer/sync}. By default only requests that push records are closed. */
    SYNC(HttpAccess.Mode.PUSHES),
    /** {@code GET /v1/identities/...}: merged identity state. Open by default. */
    READ(HttpAccess.Mode.OPEN),
    /** {@code GET /v1/analytics/*} and the dashboard with its files. Open by default. */
    ANALYTICS(HttpAccess.Mode.OPEN),
    /** {@code GET /metrics}. Closed by default (when any credential is configured). */
    METRICS(HttpAccess.Mode.CLOSED);

    /** The OpenAPI document's {@code x-jolt-role} of a route no role closes. */
    public static final String PUBLIC = "public";

    private final HttpAccess.Mode byDefault;

    HttpRole(HttpAccess.Mode byDefault) {
        this.byDefault = byDefault;
    }

    /** As configuration keys and the OpenAPI document spell it: {@code ingest}, {@code sync}, ... */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public HttpAccess.Mode byDefault() {
        return byDefault;
    }

    /** {@code jolt.http.access.ROLE}: open, closed (sync also: pushes). */
    public String accessSetting() {
        return "jolt.http.access." + key();
    }

    /** {@code jolt.http.auth.ROLE.token}: a bearer token let into this role only. */
    public String tokenSetting() {
        return "jolt.http.auth." + key() + ".token";
    }

    /** {@code jolt.http.auth.ROLE.basic}: {@code user:password} let into this role only. */
    public String basicSetting() {
        return "jolt.http.auth." + key() + ".basic";
    }
}
