package io.jolt.stream.crypto;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The libsodium function the verifier needs, bound with JNA direct mapping to the libsodium
 * 1.0.18 that lazysodium-java carries in its jar, copied to a temporary file first. The bundled
 * one always, never the system's, so every machine runs the same code; and loaded here rather than
 * by lazysodium's loader, which fails to find its own resources from some class paths (its
 * resource-loader 2.0.2 tries to list the jar as a directory).
 */
final class Libsodium {
    private static boolean loaded;

    private Libsodium() {}

    /**
     * Loads and initialises libsodium once.
     *
     * @throws LinkageError or a RuntimeException when there is none for this platform or it cannot be loaded
     */
    static synchronized void load() {
        if (!loaded) {
            Path library = extracted(bundledResource());
            Native.register(Libsodium.class, NativeLibrary.getInstance(library.toString()));
            forget(library);
            if (sodium_init() < 0) {
                throw new IllegalStateException("sodium_init failed");
            }
            loaded = true;
        }
    }

    static native int sodium_init();

    /** 0 when {@code sig} is a valid cofactorless Ed25519 signature of {@code m} under {@code pk} (and R is not of small order). */
    static native int crypto_sign_verify_detached(byte[] sig, byte[] m, long mlen, byte[] pk);

    /** Where lazysodium-java 5.1.4 keeps the library for this platform. */
    private static String bundledResource() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        if (os.contains("linux") && (x64 || arm64)) {
            return x64 ? "linux64/libsodium.so" : "arm64/libsodium.so";
        }
        if (os.contains("mac") && (x64 || arm64)) {
            return x64 ? "mac/intel/libsodium.dylib" : "mac/aarch64/libsodium.dylib";
        }
        if (os.contains("windows") && x64) {
            return "windows64/libsodium.dll";
        }
        throw new IllegalStateException("lazysodium-java carries no libsodium for " + os + "/" + arch);
    }

    /**
     * Removes the copy as soon as it is loaded: a loaded library stays mapped without its file on
     * Linux and macOS, so no run leaves a copy behind, not even one killed. Where a loaded file
     * cannot be removed (Windows), it goes at a clean exit.
     */
    private static void forget(Path library) {
        try {
            Files.deleteIfExists(library);
            Files.deleteIfExists(library.getParent());
        } catch (IOException stillInUse) {
            // deleteOnExit, set when it was copied, removes it at exit
        }
    }

    private static Path extracted(String resource) {
        try (InputStream in = Libsodium.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path (lazysodium-java missing?)");
            }
            Path dir = Files.createTempDirectory("jolt-libsodium");
            Path library = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
            Files.copy(in, library);
            library.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return library;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + resource + " to a temporary file", e);
        }
    }
}
