package io.jolt.stream.protocol;

import java.util.Optional;

/**
 * The CIDv1 text form the protocol admits (PROTOCOL §2): {@code b} + base32 of
 * {@code varint(1) ‖ varint(codec) ‖ varint(sha2-256 | blake3) ‖ varint(32) ‖ digest[32]}.
 */
public final class ContentId {
    public static final int RAW = 0x55;
    public static final int DAG_PB = 0x70;
    public static final int DAG_CBOR = 0x71;
    public static final int DAG_JSON = 0x0129;
    public static final int SHA2_256 = 0x12;
    public static final int BLAKE3 = 0x1e;

    private ContentId() {}

    public static boolean isValid(String text) {
        if (text.isEmpty() || text.charAt(0) != 'b') {
            return false;
        }
        Optional<byte[]> decoded = Base32.decode(text.substring(1));
        if (decoded.isEmpty()) {
            return false;
        }
        byte[] bytes = decoded.get();
        int[] cursor = {0};
        return readVarint(bytes, cursor) == 1
                && isCodec(readVarint(bytes, cursor))
                && isMultihash(readVarint(bytes, cursor))
                && readVarint(bytes, cursor) == Hash.LENGTH
                && bytes.length - cursor[0] == Hash.LENGTH;
    }

    /** A CID for the given codec and BLAKE3 digest (tooling and generated workloads). */
    public static String of(int codec, byte[] blake3Digest) {
        CanonicalWriter out = new CanonicalWriter(40);
        writeVarint(out, 1);
        writeVarint(out, codec);
        writeVarint(out, BLAKE3);
        writeVarint(out, Hash.LENGTH);
        out.raw(blake3Digest);
        return "b" + Base32.encode(out.toByteArray());
    }

    /** A raw-codec BLAKE3 CID of the given content bytes. */
    public static String ofRaw(byte[] content) {
        return of(RAW, Crypto.blake3(content));
    }

    private static boolean isCodec(long codec) {
        return codec == RAW || codec == DAG_PB || codec == DAG_CBOR || codec == DAG_JSON;
    }

    private static boolean isMultihash(long code) {
        return code == SHA2_256 || code == BLAKE3;
    }

    /** Minimal unsigned LEB128; -1 when truncated, over-long or not minimal. */
    private static long readVarint(byte[] bytes, int[] cursor) {
        long value = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            if (cursor[0] >= bytes.length) {
                return -1;
            }
            int b = bytes[cursor[0]++] & 0xff;
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                boolean minimal = b != 0 || shift == 0;
                return minimal ? value : -1;
            }
        }
        return -1;
    }

    private static void writeVarint(CanonicalWriter out, long value) {
        while (value >= 0x80) {
            out.u8((int) (value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.u8((int) value);
    }
}
