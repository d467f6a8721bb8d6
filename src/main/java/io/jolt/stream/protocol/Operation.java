package io.jolt.stream.protocol;

/** A device-writer operation on one path (PROTOCOL §4). */
public sealed interface Operation {
    String path();

    void writeTo(CanonicalWriter out);

    enum Mode {
        SINGLETON,
        APPEND
    }

    /** Binds a path to content: one winner per singleton path, coexisting records per append path. */
    record SetPath(String path, String contentId, Mode mode) implements Operation {
        @Override
        public void writeTo(CanonicalWriter out) {
            out.u8(0x00).string(path).string(contentId).u8(mode == Mode.SINGLETON ? 0x00 : 0x01);
        }
    }

    /** Signed logical deletion of a singleton path (RFC-0008 §6). */
    record TombstonePath(String path) implements Operation {
        @Override
        public void writeTo(CanonicalWriter out) {
            out.u8(0x01).string(path);
        }
    }

    /** Whether the operation is a candidate of the singleton merge (SetPath singleton or Tombstone). */
    default boolean isSingletonCandidate() {
        return !(this instanceof SetPath set) || set.mode() == Mode.SINGLETON;
    }
}
