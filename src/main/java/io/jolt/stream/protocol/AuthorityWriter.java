package io.jolt.stream.protocol;

/** Writes the next records of an identity's authority chain, signed by its root key. */
public record AuthorityWriter(String identity, byte[] rootPublicKey, long nextSequence, Hash previousRecordHash) {
    public static AuthorityWriter genesis(SigningKey root) {
        byte[] rootKey = root.publicKeyBytes();
        return new AuthorityWriter(IdentityId.derive(rootKey), rootKey, 0, null);
    }

    public record Written(AuthorityRecord record, AuthorityWriter next) {}

    public Written write(SigningKey root, AuthorityAction action, long createdAt) {
        AuthorityBody body = new AuthorityBody(AuthorityBody.RECORD_TYPE, AuthorityBody.VERSION, identity,
                rootPublicKey, nextSequence, previousRecordHash, action, createdAt);
        AuthorityRecord record = AuthorityRecord.of(body, root.sign(body.canonicalBytes()));
        return new Written(record, new AuthorityWriter(identity, rootPublicKey, nextSequence + 1, record.hash()));
    }
}
