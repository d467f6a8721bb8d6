package io.jolt.stream.protocol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The verified device authority of one identity (PROTOCOL §3): the chosen chain and, for each
 * device on it, key and status. A function of the set of records received, never of their order.
 */
public final class Authority {
    private static final Authority NONE = new Authority(List.of(), new TreeMap<>(Utf8.ORDER), List.of());

    private final List<AuthorityRecord> chain;
    private final TreeMap<String, DeviceAuthority> devices;
    private final List<AuthorityRecord> offBranch;

    private Authority(List<AuthorityRecord> chain, TreeMap<String, DeviceAuthority> devices, List<AuthorityRecord> offBranch) {
        this.chain = chain;
        this.devices = devices;
        this.offBranch = offBranch;
    }

    public static Authority none() {
        return NONE;
    }

    /** The chosen chain, in chain order (sequence 0 first). Empty when no valid root exists. */
    public List<AuthorityRecord> chain() {
        return chain;
    }

    /** Valid-alone records that are not on the chosen chain: reported, never used. */
    public List<AuthorityRecord> offBranch() {
        return offBranch;
    }

    /** Devices authorized on the chosen chain, by device_id in UTF-8 byte order. */
    public Collection<DeviceAuthority> devices() {
        return devices.values();
    }

    public Optional<DeviceAuthority> device(String deviceId) {
        return Optional.ofNullable(devices.get(deviceId));
    }

    /** Every authority sequence at which more than one valid record exists, ascending by sequence. */
    public List<AuthorityFork> forks() {
        if (offBranch.isEmpty()) {
            return List.of();
        }
        TreeMap<Long, List<AuthorityRecord>> bySequence = new TreeMap<>(Long::compareUnsigned);
        chain.forEach(r -> bySequence.computeIfAbsent(r.body().authoritySequence(), s -> new ArrayList<>()).add(r));
        offBranch.forEach(r -> bySequence.computeIfAbsent(r.body().authoritySequence(), s -> new ArrayList<>()).add(r));
        List<AuthorityFork> forks = new ArrayList<>();
        bySequence.forEach((sequence, records) -> {
            if (records.size() > 1) {
                Hash chosen = records.stream().filter(chain::contains).map(AuthorityRecord::hash).findFirst().orElse(null);
                forks.add(new AuthorityFork(sequence, chosen, records.stream().map(AuthorityRecord::hash).sorted().toList()));
            }
        });
        return List.copyOf(forks);
    }

    public boolean isEmpty() {
        return chain.isEmpty();
    }

    /** Verifies the authority records received for {@code identity}, in any order, signatures by {@code check}. */
    public static Authority verify(String identity, Collection<AuthorityRecord> received, SignatureCheck check) {
        Map<Hash, AuthorityRecord> valid = validAlone(identity, received, check);
        if (valid.isEmpty()) {
            return NONE;
        }
        List<AuthorityRecord> roots = new ArrayList<>();
        Map<Hash, List<AuthorityRecord>> children = links(valid, roots);
        Branch best = bestBranch(roots, children);
        if (best == null) {
            return NONE;
        }
        List<AuthorityRecord> chain = new ArrayList<>();
        for (Branch b = best; b != null; b = b.parent) {
            chain.add(0, b.record);
        }
        List<AuthorityRecord> off = new ArrayList<>(valid.values());
        off.removeAll(chain);
        off.sort(Comparator.comparing(AuthorityRecord::hash));
        TreeMap<String, DeviceAuthority> devices = new TreeMap<>(Utf8.ORDER);
        devices.putAll(best.devices);
        return new Authority(List.copyOf(chain), devices, List.copyOf(off));
    }

    /** Each valid record's children (the records that link to it at the next sequence); the genesis records go to {@code roots}. */
    private static Map<Hash, List<AuthorityRecord>> links(Map<Hash, AuthorityRecord> valid, List<AuthorityRecord> roots) {
        Map<Hash, List<AuthorityRecord>> children = new HashMap<>();
        for (AuthorityRecord record : valid.values()) {
            Hash previous = record.body().previousRecordHash();
            if (previous == null) {
                roots.add(record);
            } else {
                AuthorityRecord parent = valid.get(previous);
                if (parent != null && parent.body().authoritySequence() + 1 == record.body().authoritySequence()
                        && parent.body().authoritySequence() != -1L) {
                    children.computeIfAbsent(previous, h -> new ArrayList<>()).add(record);
                }
            }
        }
        return children;
    }

    /** Of every branch from a root whose actions apply, the greatest by {@link Branch#ORDER} (null when none applies). */
    private static Branch bestBranch(List<AuthorityRecord> roots, Map<Hash, List<AuthorityRecord>> children) {
        Branch best = null;
        Deque<Branch> stack = new ArrayDeque<>();
        for (AuthorityRecord root : roots) {
            apply(new Branch(null, root, Map.of()), stack);
        }
        while (!stack.isEmpty()) {
            Branch branch = stack.pop();
            if (best == null || Branch.ORDER.compare(branch, best) > 0) {
                best = branch;
            }
            for (AuthorityRecord child : children.getOrDefault(branch.record.hash(), List.of())) {
                apply(new Branch(branch, child, branch.devices), stack);
            }
        }
        return best;
    }

    /**
     * Applies the record's action to the devices of its parent (§3 step 2); a record that breaks
     * a rule ends its branch, so nothing is pushed for it or its descendants.
     */
    private static void apply(Branch candidate, Deque<Branch> stack) {
        AuthorityAction action = candidate.record.body().action();
        Map<String, DeviceAuthority> devices = new HashMap<>(candidate.devices);
        if (action instanceof AuthorityAction.Authorize authorize) {
            Optional<PublicKey> key = PublicKey.parse(authorize.devicePublicKey());
            if (devices.containsKey(authorize.deviceId()) || key.isEmpty()) {
                return;
            }
            devices.put(authorize.deviceId(), DeviceAuthority.active(authorize.deviceId(), key.get()));
        } else if (action instanceof AuthorityAction.Revoke revoke) {
            DeviceAuthority current = devices.get(revoke.deviceId());
            if (current == null || !current.isActive()) {
                return;
            }
            devices.put(revoke.deviceId(), current.revoked(revoke.cutoff()));
        }
        stack.push(new Branch(candidate.parent, candidate.record, Map.copyOf(devices)));
    }

    /**
     * Records valid alone (§3 step 1), one per body hash: well-formed, naming {@code identity}
     * derived from a usable root key, signed by it. Of two valid signatures on one body the lesser is kept.
     */
    private static Map<Hash, AuthorityRecord> validAlone(String identity, Collection<AuthorityRecord> received, SignatureCheck check) {
        Map<Hash, AuthorityRecord> valid = new HashMap<>();
        PublicKey root = null;
        byte[] rootBytes = null;
        for (AuthorityRecord record : received) {
            AuthorityBody body = record.body();
            if (!isWellFormed(body, identity)) {
                continue;
            }
            if (root == null || !java.util.Arrays.equals(rootBytes, body.rootPublicKey())) {
                Optional<PublicKey> parsed = PublicKey.parse(body.rootPublicKey());
                if (parsed.isEmpty()) {
                    continue;
                }
                root = parsed.get();
                rootBytes = body.rootPublicKey();
            }
            if (!record.signatureVerifies(root, check)) {
                continue;
            }
            valid.merge(record.hash(), record, (a, b) -> java.util.Arrays.compareUnsigned(a.signature(), b.signature()) <= 0 ? a : b);
        }
        return valid;
    }

    private static boolean isWellFormed(AuthorityBody body, String identity) {
        boolean genesis = body.authoritySequence() == 0;
        return AuthorityBody.RECORD_TYPE.equals(body.recordType())
                && body.version() == AuthorityBody.VERSION
                && body.identity().equals(identity)
                && IdentityId.derive(body.rootPublicKey()).equals(identity)
                && DeviceId.isValid(body.action().deviceId())
                && genesis == (body.previousRecordHash() == null);
    }

    /** A node of the authority tree with the devices in force after it. */
    private record Branch(Branch parent, AuthorityRecord record, Map<String, DeviceAuthority> devices) {
        /** Longest branch wins; equal length: the greater final record hash (§3 step 3). */
        static final Comparator<Branch> ORDER = Comparator
                .<Branch, Long>comparing(b -> b.record.body().authoritySequence(), Long::compareUnsigned)
                .thenComparing(b -> b.record.hash());
    }
}
