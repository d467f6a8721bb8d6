package io.jolt.stream.analytics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/** Writes conflict rows as CSV (a header, lists joined by {@code ;}) or as JSON Lines (lists as arrays), one row per event. */
public final class ConflictExport implements AutoCloseable {
    public enum Format { csv, jsonl }

    private final Writer out;
    private final Format format;
    private final ObjectWriter first;
    private final ObjectWriter writer;
    private long rows;

    public ConflictExport(Writer out, Format format) {
        this.out = out;
        this.format = format;
        if (format == Format.csv) {
            CsvMapper csv = new CsvMapper();
            CsvSchema schema = csv.schemaFor(ConflictRow.class).withArrayElementSeparator(";");
            this.first = csv.writer(schema.withHeader());
            this.writer = csv.writer(schema.withoutHeader());
        } else {
            this.writer = new ObjectMapper().writer();
            this.first = writer;
        }
    }

    public void write(ConflictRow row) {
        try {
            out.write((rows == 0 ? first : writer).writeValueAsString(row));
            if (format == Format.jsonl) {
                out.write('\n');
            }
            rows++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public long rows() {
        return rows;
    }

    /** An export without rows still says what its columns are. */
    @Override
    public void close() throws IOException {
        if (rows == 0 && format == Format.csv) {
            out.write(String.join(",", new CsvMapper().schemaFor(ConflictRow.class).getColumnNames()) + "\n");
        }
        out.flush();
    }
}
