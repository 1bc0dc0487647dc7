package dev.cairn.platform.console;

import dev.cairn.platform.DemoData;

import java.time.Duration;
import java.util.List;

/** The dev-mode demo data (match bgt-2025-test-1, workspace acme, …), written once per test run. */
final class DemoDataOnce {

    private static boolean seeded;

    private DemoDataOnce() {
    }

    static synchronized void ensure(List<DemoData> demoData) {
        if (!seeded) {
            demoData.forEach(data -> data.seed().await().atMost(Duration.ofSeconds(30)));
            seeded = true;
        }
    }
}
