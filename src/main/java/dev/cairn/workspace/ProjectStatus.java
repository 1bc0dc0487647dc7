package dev.cairn.workspace;

public enum ProjectStatus {
    ACTIVE, PAUSED, ARCHIVED
}
