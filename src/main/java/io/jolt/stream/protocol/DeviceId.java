package io.jolt.stream.protocol;

/** device_id: the whole string matches {@code [a-z0-9_][a-z0-9_.-]{0,63}} (PROTOCOL §2). */
public final class DeviceId {
    private DeviceId() {}

    public static boolean isValid(String id) {
        if (id.isEmpty() || id.length() > 64) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean always = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
            boolean laterOnly = c == '.' || c == '-';
            if (!always && !(laterOnly && i > 0)) {
                return false;
            }
        }
        return true;
    }
}
