package io.jolt.stream.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.wire.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks every answer a run recorded to {@code GET /v1/identities/{id}} against the history of
 * what was accepted, as the bounded-staleness promise says (src/site/markdown/http-api.md):
 *
 * <ul>
 *   <li>a 200 (or 404) holds every record of the identity accepted more than the bound before it
 *       was asked: its {@code Jolt-Position} is past each such record's offset; and its state is
 *       exactly the core's merge of the identity's input up to some point at or past that position
 *       in each input topic (a store holds a prefix of each input partition, committed or not);
 *   <li>a 503 is typed ({@code stale}, {@code not_ready}, {@code owner_unreachable}), carries
 *       {@code Retry-After}, and came within 2 s ({@code owner_unreachable}: within the forward
 *       timeout and a second), unless the instance asked was killed, paused or cut off while it
 *       answered;
 *   <li>no answer at all only from an instance under a fault then (killed, paused, cut off);
 *   <li>nothing else.
 * </ul>
 */
final class AnswerAudit {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long STALE_WITHIN_NANOS = 2_000_000_000L;

    /** An answer: asked of {@code instance} at {@code askedNanos}, answered at {@code answeredNanos} (-1 status: none came). */
    record Answer(String identity, String instance, long askedNanos, long answeredNanos, int status, String body, String position,
                  boolean retryAfter) {
        String code() {
            try {
                return status >= 400 ? JSON.readTree(body).at("/error/code").asText() : null;
            } catch (Exception e) {
                return "unreadable: " + body;
            }
        }
    }

    /** A line {@code POST /v1/records} answered accepted, where it went, and when the answer came. */
    record Accepted(Object record, String topic, int partition, long offset, long answeredNanos) {}

    /** A record of an input topic: where it stands and what it is. */
    record Placed(String topic, int partition, long offset, Object record) {}

    /** When an instance could not answer: from the fault until it answered again. */
    record Outage(String instance, long fromNanos, long toNanos) {}

    /** What the audit found: answers by status, and each wrong one said. */
    record Result(Map<String, Integer> byKind, List<String> wrong) {}

    private final Map<String, List<Placed>> input = new HashMap<>();
    private final Map<String, List<Accepted>> accepted = new HashMap<>();
    private final long boundNanos;
    private final long forwardNanos;
    private final List<Outage> outages;

    AnswerAudit(List<Placed> placed, List<Accepted> lines, long boundMillis, long forwardTimeoutMillis, List<Outage> outages) {
        placed.forEach(p -> input.computeIfAbsent(identity(p.record()), k -> new ArrayList<>()).add(p));
        lines.forEach(a -> accepted.computeIfAbsent(identity(a.record()), k -> new ArrayList<>()).add(a));
        this.boundNanos = boundMillis * 1_000_000;
        this.forwardNanos = forwardTimeoutMillis * 1_000_000;
        this.outages = outages;
    }

    Result check(List<Answer> answers) {
        Map<String, Integer> byKind = new TreeMap<>();
        List<String> wrong = new ArrayList<>();
        Map<String, Map<String, JsonNode>> merges = new HashMap<>();
        for (Answer a : answers) {
            byKind.merge(a.status() < 0 ? "no answer" : a.status() + (a.status() >= 400 ? " " + a.code() : ""), 1, Integer::sum);
            String why = switch (a.status()) {
                case 200, 404 -> current(a, merges.computeIfAbsent(a.identity(), k -> new HashMap<>()));
                case 503 -> refusal(a);
                case -1 -> silence(a);
                default -> "answered " + a.status() + ": " + a.body();
            };
            if (why != null) {
                wrong.add(String.format("%s asked of %s at %.3f s: %s", a.identity(), a.instance(), a.askedNanos() / 1e9, why));
            }
        }
        return new Result(byKind, wrong);
    }

    private String current(Answer a, Map<String, JsonNode> merges) {
        Map<String, Long> position = position(a.position());
        for (Accepted line : accepted.getOrDefault(a.identity(), List.of())) {
            if (line.answeredNanos() < a.askedNanos() - boundNanos) {
                Long reached = position.get(line.topic() + "-" + line.partition());
                if (reached == null || reached <= line.offset()) {
                    return String.format("misses %s-%d@%d, accepted %.1f s before it was asked (position %s)", line.topic(), line.partition(),
                            line.offset(), (a.askedNanos() - line.answeredNanos()) / 1e9, a.position());
                }
            }
        }
        if (a.status() == 404) {
            return position.isEmpty() || prefixes(a.identity(), position).values().stream().anyMatch(List::isEmpty) ? null
                    : "404 though records of it stand below its position " + a.position();
        }
        JsonNode answered;
        try {
            answered = JSON.readTree(a.body());
        } catch (Exception e) {
            return "unreadable 200: " + a.body();
        }
        for (Map.Entry<String, List<Object>> prefix : prefixes(a.identity(), position).entrySet()) {
            List<Object> records = prefix.getValue();
            if (!records.isEmpty()
                    && merges.computeIfAbsent(prefix.getKey(), k -> OutputAudit.asServed(OutputAudit.coreMerge(records).get(0))).equals(answered)) {
                return null;
            }
        }
        return "its state is no merge of the identity's input at or past its position " + a.position();
    }

    /** The identity's input records up to every pair of cuts at or past the position, one per input topic, by the cuts. */
    private Map<String, List<Object>> prefixes(String identity, Map<String, Long> position) {
        List<Placed> placed = input.getOrDefault(identity, List.of());
        Map<String, Set<Long>> cuts = new HashMap<>();
        for (String topic : List.of(Topics.AUTHORITY, Topics.ENTRIES)) {
            Long from = position.entrySet().stream().filter(e -> e.getKey().startsWith(topic + "-")).map(Map.Entry::getValue).findFirst().orElse(0L);
            Set<Long> at = new TreeSet<>(List.of(from));
            placed.stream().filter(p -> p.topic().equals(topic) && p.offset() >= from).forEach(p -> at.add(p.offset() + 1));
            cuts.put(topic, at);
        }
        Map<String, List<Object>> out = new LinkedHashMap<>();
        for (long authority : cuts.get(Topics.AUTHORITY)) {
            for (long entries : cuts.get(Topics.ENTRIES)) {
                Set<Object> records = new LinkedHashSet<>();
                placed.stream().filter(p -> p.offset() < (p.topic().equals(Topics.AUTHORITY) ? authority : entries)).forEach(p -> records.add(p.record()));
                out.put(authority + ":" + entries, List.copyOf(records));
            }
        }
        return out;
    }

    private String refusal(Answer a) {
        String code = a.code();
        long took = a.answeredNanos() - a.askedNanos();
        if (!a.retryAfter()) {
            return "503 " + code + " without Retry-After";
        }
        if (!List.of("stale", "not_ready", "owner_unreachable").contains(code)) {
            return "503 of no known kind: " + a.body();
        }
        if (underFault(a)) {
            return null; // paused or killed while it answered: no promise of time holds for a frozen process
        }
        return switch (code) {
            case "stale", "not_ready" -> took <= STALE_WITHIN_NANOS ? null : String.format("503 %s after %.1f s, not within 2 s", code, took / 1e9);
            case "owner_unreachable" -> took <= forwardNanos + 1_000_000_000L ? null
                    : String.format("503 owner_unreachable after %.1f s, past the forward timeout", took / 1e9);
            default -> "503 of no known kind: " + a.body();
        };
    }

    private String silence(Answer a) {
        return underFault(a) ? null : "no answer from an instance under no fault";
    }

    /** Whether the instance asked was killed, paused or cut off at some moment between the question and the answer. */
    private boolean underFault(Answer a) {
        return outages.stream().anyMatch(o -> o.instance().equals(a.instance()) && a.askedNanos() <= o.toNanos() && a.answeredNanos() >= o.fromNanos());
    }

    private static Map<String, Long> position(String header) {
        Map<String, Long> out = new HashMap<>();
        if (header != null && !header.isEmpty()) {
            for (String part : header.split(",")) {
                String[] kv = part.split("=");
                out.put(kv[0], Long.parseLong(kv[1]));
            }
        }
        return out;
    }

    private static String identity(Object record) {
        return record instanceof AuthorityRecord a ? a.body().identity() : ((Entry) record).body().identity();
    }
}
