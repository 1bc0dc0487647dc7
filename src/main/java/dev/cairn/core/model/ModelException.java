package dev.cairn.core.model;

/**
 * A model file that cannot be served: it names the file, the line and the field, so the message alone says what to
 * fix (e.g. {@code models/library.yaml:14: entities.Book.fields.title: unknown type 'text'}).
 */
public final class ModelException extends RuntimeException {

    private final String file;
    private final int line;
    private final String where;

    public ModelException(String file, int line, String where, String message) {
        super(file + ":" + line + ": " + (where.isEmpty() ? "" : where + ": ") + message, null, false, false);
        this.file = file;
        this.line = line;
        this.where = where;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public String where() {
        return where;
    }
}
