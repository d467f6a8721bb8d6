package io.jolt.stream.protocol;

import java.util.List;
import java.util.Optional;

/** The per-entry rules of PROTOCOL §2 and §4, checked before any key is looked at. */
public final class EntryRules {
    private EntryRules() {}

    /** The first rule the body breaks within the group of {@code groupIdentity}, or empty. */
    public static Optional<Defect> check(EntryBody body, String groupIdentity) {
        if (!EntryBody.RECORD_TYPE.equals(body.recordType())) {
            return Optional.of(Defect.WRONG_RECORD_TYPE);
        }
        if (body.version() != EntryBody.VERSION) {
            return Optional.of(Defect.WRONG_VERSION);
        }
        if (!IdentityId.isWellFormed(body.identity())) {
            return Optional.of(Defect.MALFORMED_IDENTITY);
        }
        if (!body.identity().equals(groupIdentity)) {
            return Optional.of(Defect.IDENTITY_MISMATCH);
        }
        if (!DeviceId.isValid(body.deviceId())) {
            return Optional.of(Defect.BAD_DEVICE_ID);
        }
        if (!JoltPath.isCanonical(body.operation().path())) {
            return Optional.of(Defect.NON_CANONICAL_PATH);
        }
        if (body.operation() instanceof Operation.SetPath set && !ContentId.isValid(set.contentId())) {
            return Optional.of(Defect.BAD_CONTENT_ID);
        }
        boolean genesis = body.deviceSequence() == 0;
        if (genesis && body.previousEntryHash() != null) {
            return Optional.of(Defect.PREVIOUS_HASH_AT_GENESIS);
        }
        if (!genesis && body.previousEntryHash() == null) {
            return Optional.of(Defect.MISSING_PREVIOUS_HASH);
        }
        if (!strictlyAscending(body.observedHeads())) {
            return Optional.of(Defect.NON_CANONICAL_HEADS);
        }
        return Optional.empty();
    }

    private static boolean strictlyAscending(List<Hash> heads) {
        for (int i = 1; i < heads.size(); i++) {
            if (heads.get(i - 1).compareTo(heads.get(i)) >= 0) {
                return false;
            }
        }
        return true;
    }
}
