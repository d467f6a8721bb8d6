package io.jolt.stream.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.jolt.stream.wire.RecordIngest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code POST /v1/records}: §9 JSON Lines in, each line produced to its input topic or refused with
 * a reason, once the client's quota let the batch through (a line, empty ones aside, costs a token).
 */
final class RecordsEndpoint {
    static final long MAX_BODY_BYTES = 8L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RecordIngest ingest;
    private final EdgeQuotas quotas;
    private final MeterRegistry metrics;
    private final Counter accepted;

    RecordsEndpoint(RecordIngest ingest, EdgeQuotas quotas, MeterRegistry metrics) {
        this.ingest = ingest;
        this.quotas = quotas;
        this.metrics = metrics;
        this.accepted = Counter.builder("jolt.api.records.accepted").description("lines of POST /v1/records produced").register(metrics);
    }

    /** 200: every line accepted; 207: some were; 422: none was; 429 or 413 from the quota: none was tried. */
    void records(Context ctx) {
        byte[] body = ctx.bodyAsBytes();
        if (body.length > MAX_BODY_BYTES) {
            throw new ApiError(ApiError.Code.BODY_TOO_LARGE, "at most " + MAX_BODY_BYTES + " bytes per request");
        }
        List<byte[]> lines = splitLines(body);
        // What ingest judges: an empty line is skipped there, so it costs nothing here.
        quotas.admitRecords(ctx, lines.stream().filter(l -> l.length > 0).count());
        List<RecordIngest.LineResult> results = ingest.ingest(lines);
        ObjectNode out = JSON.createObjectNode();
        ArrayNode array = out.putArray("results");
        int acceptedLines = 0;
        for (RecordIngest.LineResult r : results) {
            ObjectNode node = array.addObject().put("line", r.line()).put("accepted", r.accepted());
            if (r.accepted()) {
                acceptedLines++;
                node.put("topic", r.topic()).put("partition", r.partition()).put("offset", r.offset());
            } else {
                node.put("reason", r.reason()).put("detail", r.detail());
                Counter.builder("jolt.api.records.rejected").description("lines of POST /v1/records refused before the topics, by reason").tag("reason", r.reason()).register(metrics).increment();
            }
        }
        accepted.increment(acceptedLines);
        out.put("accepted", acceptedLines).put("rejected", results.size() - acceptedLines);
        int status = acceptedLines == results.size() ? 200 : acceptedLines > 0 ? 207 : 422;
        ctx.status(status).contentType("application/json").result(out.toString());
    }

    /** JSON Lines: split on LF; a final line needs no terminator. */
    private static List<byte[]> splitLines(byte[] body) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < body.length; i++) {
            if (body[i] == '\n') {
                lines.add(Arrays.copyOfRange(body, start, i));
                start = i + 1;
            }
        }
        if (start < body.length) {
            lines.add(Arrays.copyOfRange(body, start, body.length));
        }
        return lines;
    }
}
