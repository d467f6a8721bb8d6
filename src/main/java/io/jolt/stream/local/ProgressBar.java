package io.jolt.stream.local;

import java.io.PrintWriter;

/** A one-line progress bar on a terminal (redrawn in place), or plain lines when not a terminal. */
public final class ProgressBar {
    private final PrintWriter out;
    private final String label;
    private final boolean terminal = System.console() != null;
    private long lastPrint;

    public ProgressBar(PrintWriter out, String label) {
        this.out = out;
        this.label = label;
    }

    public void update(long done, long total, String suffix) {
        long now = System.nanoTime();
        if (!terminal && now - lastPrint < 2_000_000_000L && done < total) {
            return;
        }
        lastPrint = now;
        int width = 30;
        int filled = total == 0 ? width : (int) Math.min(width, done * width / total);
        String bar = "#".repeat(filled) + "-".repeat(width - filled);
        String line = String.format("%-10s [%s] %,d/%,d %s", label, bar, done, total, suffix);
        out.print(terminal ? "\r" + line : line + System.lineSeparator());
        out.flush();
    }

    public void finish() {
        if (terminal) {
            out.println();
        }
    }
}
