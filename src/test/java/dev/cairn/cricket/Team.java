package dev.cairn.cricket;

/** A team as the tests write it straight into the table (the served entity is models/cricket.yaml's). */
record Team(String id, String name, String country, Integer ranking) {
}
