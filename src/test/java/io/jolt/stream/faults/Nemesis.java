package io.jolt.stream.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded, randomised fault schedule over a cluster of three brokers and three service
 * instances, in the manner of Jepsen's nemesis: kill -9 and a restart on the same data, SIGSTOP
 * for 5–30 s (longer than a session timeout) and SIGCONT, a host cut off from every other (its
 * link down) or only from the cluster (its packets to brokers and peers dropped, clients still
 * reaching it), and now and then two at once, one on the brokers' side and one on the services'.
 * The same seed gives the same schedule, so a failing run is replayed from the seed it printed.
 */
record Nemesis(long seed, List<Fault> faults) {
    /** What a fault does to its target. */
    enum Kind {
        KILL("kill -9, restarted on its data"),
        PAUSE("SIGSTOP, then SIGCONT"),
        CUT("host link down, then up"),
        ISOLATE("cut off from brokers and peers, clients still reach it");

        final String says;

        Kind(String says) {
            this.says = says;
        }
    }

    /** A broker (1–3) or a service instance (1–3). */
    record Target(boolean broker, int index) {
        @Override
        public String toString() {
            return (broker ? "broker-" : "service-") + index;
        }
    }

    /** One fault: struck {@code at} after the schedule starts, healed {@code lasting} later. */
    record Fault(Duration at, Target target, Kind kind, Duration lasting) {
        Duration healedAt() {
            return at.plus(lasting);
        }

        @Override
        public String toString() {
            return String.format("at %5.1f s %-9s %-7s for %4.1f s", at.toMillis() / 1000.0, target, kind, lasting.toMillis() / 1000.0);
        }
    }

    /**
     * Faults over {@code length}: one every 12–24 s, each healed before the next begins, a
     * quarter of them doubled (a broker and a service at once). Brokers are only killed, paused
     * or cut (isolating a broker is a cut); the last fault heals at least 15 s before the end.
     */
    static Nemesis schedule(long seed, Duration length) {
        Random random = new Random(seed);
        List<Fault> faults = new ArrayList<>();
        long at = 10_000 + random.nextInt(5_000);
        while (true) {
            boolean doubled = random.nextInt(4) == 0;
            List<Fault> strike = new ArrayList<>();
            if (doubled) {
                strike.add(fault(random, at, new Target(true, 1 + random.nextInt(3))));
                strike.add(fault(random, at, new Target(false, 1 + random.nextInt(3))));
            } else {
                strike.add(fault(random, at, new Target(random.nextInt(3) == 0, 1 + random.nextInt(3))));
            }
            long healed = strike.stream().mapToLong(f -> f.healedAt().toMillis()).max().orElseThrow();
            if (healed > length.toMillis() - 15_000) {
                break;
            }
            faults.addAll(strike);
            at = healed + 12_000 + random.nextInt(12_000);
        }
        return new Nemesis(seed, List.copyOf(faults));
    }

    private static Fault fault(Random random, long at, Target target) {
        Kind kind = target.broker() ? List.of(Kind.KILL, Kind.PAUSE, Kind.CUT).get(random.nextInt(3)) : Kind.values()[random.nextInt(4)];
        long lasting = switch (kind) {
            case KILL -> 3_000 + random.nextInt(7_000);
            case PAUSE -> 5_000 + random.nextInt(25_001);
            case CUT, ISOLATE -> 10_000 + random.nextInt(20_001);
        };
        return new Fault(Duration.ofMillis(at), target, kind, Duration.ofMillis(lasting));
    }

    /** Whether {@code target} is under a fault at {@code t} (since the schedule's start), with {@code slack} either side. */
    boolean faulted(Target target, Duration t, Duration slack) {
        return faults.stream().anyMatch(f -> f.target().equals(target) && t.compareTo(f.at().minus(slack)) >= 0
                && t.compareTo(f.healedAt().plus(slack)) <= 0);
    }
}
