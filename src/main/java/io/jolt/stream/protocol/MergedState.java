package io.jolt.stream.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The deterministic merged state of one identity (PROTOCOL §9): a function of the set of records
 * received. Also carries what the product reports beyond §9 (equivocations, the authority chain)
 * and, for a provider that forgot superseded history, what it kept of it.
 */
public record MergedState(
        String identity,
        int requiredOperationLevel,
        List<DeviceView> devices,
        List<SingletonState> singletons,
        List<AppendRecord> appends,
        List<Rejection> rejected,
        List<Equivocation> equivocations,
        Authority authority,
        List<DeviceLog> deviceLogs,
        CompactedHistory compacted) {

    public MergedState {
        devices = List.copyOf(devices);
        singletons = List.copyOf(singletons);
        appends = List.copyOf(appends);
        rejected = List.copyOf(rejected);
        equivocations = List.copyOf(equivocations);
        deviceLogs = List.copyOf(deviceLogs);
    }

    public Resolution resolve(String path) {
        if (!JoltPath.isCanonical(path)) {
            return new Resolution.NonCanonicalPath(path);
        }
        return Resolution.of(path, singletonsByPath().get(path));
    }

    /** Append records under {@code prefix} in §6 order; empty for a prefix that is not admitted. */
    public List<AppendRecord> enumerate(String prefix) {
        if (!JoltPath.isPrefix(prefix)) {
            throw new IllegalArgumentException("not a canonical prefix: " + prefix);
        }
        List<AppendRecord> out = new ArrayList<>();
        for (AppendRecord record : appends) {
            if (record.matches(prefix)) {
                out.add(record);
            }
        }
        return out;
    }

    private Map<String, SingletonState> singletonsByPath() {
        Map<String, SingletonState> byPath = new TreeMap<>(Utf8.ORDER);
        singletons.forEach(s -> byPath.put(s.path(), s));
        return byPath;
    }
}
