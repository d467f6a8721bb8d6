package io.jolt.stream.analytics;

import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictHead;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.protocol.JoltPath;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What each output record counts for. A conflict event counts once for its kind and its
 * identity; a concurrent-heads event also for its path, the path's first segment and every
 * device with a head in it; an equivocation for its device, as a device and as an equivocator.
 * Every fact of a clock-sensitive event is clock sensitive.
 */
public final class Facts {
    private Facts() {}

    public static List<Fact> of(ConflictEvent event) {
        Tally one = Tally.one(event.getClockSensitive());
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact(new FactKey(Dimension.KIND, event.getKind().name()), one));
        facts.add(new Fact(new FactKey(Dimension.IDENTITY, event.getIdentity()), one));
        switch (event.getKind()) {
            case CONCURRENT_HEADS -> {
                facts.add(new Fact(new FactKey(Dimension.PATH, event.getPath()), one));
                facts.add(new Fact(new FactKey(Dimension.PREFIX, JoltPath.firstSegment(event.getPath())), one));
                for (String device : headDevices(event)) {
                    facts.add(new Fact(new FactKey(Dimension.DEVICE, FactKey.device(event.getIdentity(), device)), one));
                }
            }
            case EQUIVOCATION -> {
                String device = FactKey.device(event.getIdentity(), event.getDeviceId());
                facts.add(new Fact(new FactKey(Dimension.DEVICE, device), one));
                facts.add(new Fact(new FactKey(Dimension.EQUIVOCATOR, device), one));
            }
            case AUTHORITY_FORK -> { }
        }
        return facts;
    }

    public static List<Fact> of(RejectedRecord rejected) {
        return List.of(new Fact(new FactKey(Dimension.REJECTION, rejected.getReason().name()), Tally.one(false)));
    }

    public static List<Fact> of(ArchiveLoss loss) {
        return List.of(new Fact(new FactKey(Dimension.LOSS, loss.getKind().name()), Tally.one(false)));
    }

    public static List<Fact> of(Compaction compaction) {
        return List.of(new Fact(new FactKey(Dimension.COMPACTION, compaction.getCause().name()), Tally.one(false)));
    }

    /** The devices with a head in the conflict, each once (version-1 events name them by their HeadRefs). */
    private static Set<String> headDevices(ConflictEvent event) {
        Set<String> devices = new LinkedHashSet<>();
        if (event.getWinnerHead() != null) {
            devices.add(event.getWinnerHead().getDeviceId());
            event.getLoserHeads().stream().map(ConflictHead::getDeviceId).forEach(devices::add);
        } else {
            if (event.getWinner() != null) {
                devices.add(event.getWinner().getDeviceId());
            }
            event.getLosers().forEach(l -> devices.add(l.getDeviceId()));
        }
        return devices;
    }
}
