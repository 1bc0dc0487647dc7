package dev.cairn.platform;

/**
 * Fired (asynchronously) once, when the readiness check first reports UP: work a start may leave for later observes
 * it, so it neither delays readiness nor competes with the rest of the start for the pod's CPU.
 */
public record ServiceReady() {
}
