package dev.cairn.platform;

import dev.cairn.core.query.AccessPattern;

import java.util.List;

/** A domain's access patterns, each with the exact request it sends (served at {@code GET /access-patterns}). */
public interface AccessPatterns {

    List<AccessPattern> accessPatterns(String table);
}
