package dev.cairn.core.expr.builder;

/** The DynamoDB operations the builder composes: three reads it may run, and one write it only shows. */
public enum Operation {
    QUERY("Query", "query"), SCAN("Scan", "scan"), GET_ITEM("GetItem", "get-item"), UPDATE_ITEM("UpdateItem", "update-item");

    private final String wire;
    private final String cli;

    Operation(String wire, String cli) {
        this.wire = wire;
        this.cli = cli;
    }

    /** The API's name: Query, Scan, GetItem, UpdateItem. */
    public String wire() {
        return wire;
    }

    /** The AWS CLI's command: query, scan, get-item, update-item. */
    public String cli() {
        return cli;
    }

    public boolean isRead() {
        return this != UPDATE_ITEM;
    }

    public static Operation named(String name) {
        for (Operation op : values()) {
            if (op.wire.equalsIgnoreCase(name) || op.cli.equalsIgnoreCase(name)) {
                return op;
            }
        }
        return null;
    }
}
