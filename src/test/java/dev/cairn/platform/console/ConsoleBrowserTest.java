package dev.cairn.platform.console;

import dev.cairn.platform.DemoData;
import io.quarkus.arc.All;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console in a real browser: headless Chromium (Debian's chromium and chromium-driver, installed by .ci/run)
 * driven by Selenium. Screenshots go to target/console-*.png.
 */
@QuarkusTest
class ConsoleBrowserTest {

    @TestHTTPResource("/console")
    URL console;

    @Inject
    @All
    List<DemoData> demoData;

    WebDriver browser;
    Path profile;

    @BeforeEach
    void start() throws Exception {
        DemoDataOnce.ensure(demoData);
        profile = Files.createTempDirectory("cairn-chromium-");
        var options = new ChromeOptions();
        options.setBinary(executable("chromium", "chromium-browser", "google-chrome"));
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                "--disable-dev-shm-usage", "--window-size=1400,1100", "--user-data-dir=" + profile);
        // The browser's console, where it reports what the Content-Security-Policy refused.
        var logging = new LoggingPreferences();
        logging.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logging);
        var service = new ChromeDriverService.Builder().usingDriverExecutable(new File(executable("chromedriver")))
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    /** The first of these programs on the PATH (no machine-specific location in the code). */
    static String executable(String... names) {
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            for (String name : names) {
                File candidate = new File(dir, name);
                if (candidate.canExecute()) {
                    return candidate.getPath();
                }
            }
        }
        throw new IllegalStateException("none of " + Arrays.toString(names)
                + " is on the PATH: install Debian's chromium and chromium-driver (see .ci/run)");
    }

    WebDriverWait waiting() {
        return new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    void screenshot(String name) throws Exception {
        byte[] png = ((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target/console-" + name + ".png"), png);
    }

    /** What the browser refused under the page's Content-Security-Policy since the last look (the log is drained). */
    List<String> policyViolations() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy")).toList();
    }

    @Test
    void theContentSecurityPolicyIsInForceAndReportsWhatItRefuses() {
        browser.get(console.toString());
        waiting().until(ExpectedConditions.elementToBeClickable(By.id("tab-patterns")));
        assertThat(policyViolations()).isEmpty();
        // What an injected fragment would try: an inline style and an inline script. Neither takes effect.
        Object outcome = ((JavascriptExecutor) browser).executeScript("""
                const probe = document.createElement('div');
                probe.setAttribute('style', 'color: rgb(255, 0, 0)');
                document.body.append(probe);
                const script = document.createElement('script');
                script.textContent = 'window.inlineRan = true';
                document.body.append(script);
                return [getComputedStyle(probe).color === getComputedStyle(document.body).color, window.inlineRan === true];""");
        assertThat(outcome).as("the probe keeps the page's colour; the inline script never ran").isEqualTo(List.of(true, false));
        assertThat(policyViolations()).anySatisfy(m -> assertThat(m).contains("style-src"))
                .anySatisfy(m -> assertThat(m).contains("script-src"));
    }

    @Test
    void theDemoMatchShowsEveryMemberInItsGroupAndAPatternRunsForOneCall() throws Exception {
        List<Map<String, Object>> members = given().queryParam("kind", "match").queryParam("id", "bgt-2025-test-1")
                .get("/console/api/collections").then().statusCode(200).extract().path("items");

        browser.get(console.toString());
        // It opens on the table: its indexes, and the items by type one click away.
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#overview tr[data-index='gsi4']")));
        browser.findElement(By.id("count-types")).click();
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#type-counts tr[data-type='Match']")));
        screenshot("overview");
        waiting().until(ExpectedConditions.elementToBeClickable(By.cssSelector("a[data-id='bgt-2025-test-1']"))).click();
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".group[data-group='team2']")));

        List<WebElement> rows = browser.findElements(By.cssSelector(".collection tr.item"));
        assertThat(rows).hasSize(members.size());
        for (Map<String, Object> member : members) {
            String selector = ".group[data-group='" + member.get("group") + "'] tr.item[data-sk='" + member.get("sk") + "']";
            assertThat(browser.findElements(By.cssSelector(selector))).as(selector).hasSize(1);
        }
        assertThat(browser.findElement(By.cssSelector(".collection .pk")).getText()).contains("MATCH#bgt-2025-test-1");
        assertThat(browser.findElement(By.id("collection-calls")).getText()).matches("1 call( · [0-9.]+ capacity units)?");
        // A grid: pk and sk first, one column per attribute, values typed, system attributes behind the toggle.
        assertThat(browser.findElement(By.cssSelector(".group[data-group='team1'] th[data-attr='pk']")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.cssSelector(".group[data-group='team1'] th[data-attr='sk']")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.cssSelector("td[data-attr='battingPosition'] .dtype")).getText()).isEqualTo("N");
        assertThat(browser.findElement(By.cssSelector(".legend")).getText()).contains("MatchPlayer");
        WebElement context = browser.findElement(By.cssSelector("th[data-attr='_ctx']"));
        assertThat(context.isDisplayed()).isFalse();
        // An embedded copy is data: the venue's item shows it without the system attributes.
        assertThat(browser.findElement(By.cssSelector(".group[data-group='root'] th[data-attr='_ref']")).isDisplayed()).isTrue();
        screenshot("collection");
        browser.findElement(By.id("show-system")).click();
        assertThat(context.isDisplayed()).isTrue();
        screenshot("collection-system-attributes");
        browser.findElement(By.id("show-system")).click();
        assertThat(context.isDisplayed()).isFalse();

        // The post example names a post of the demo data (post ids are generated, so it is looked up).
        WebElement post = browser.findElement(By.cssSelector(".examples a[data-kind='post']"));
        waiting().until(driver -> !post.getAttribute("data-id").isEmpty());
        post.click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".collection .pk"), "POST#"));
        assertThat(browser.findElements(By.cssSelector(".collection tr.item"))).isNotEmpty();

        browser.findElement(By.id("tab-patterns")).click();
        WebElement roster = waiting().until(ExpectedConditions.visibilityOfElementLocated(
                By.xpath("//tr[td[2][text()='GET /courses/{cid}/students']]/td[contains(@class,'readable')]")));
        assertThat(roster.getText()).contains("CRS#math204").doesNotContain(":v");
        screenshot("access-patterns");
        waiting().until(ExpectedConditions.elementToBeClickable(
                By.cssSelector("tr[data-name='List projects newest first']"))).click();
        WebElement id = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("input[data-param='id']")));
        id.clear();
        id.sendKeys("acme");
        browser.findElement(By.id("pattern-run")).click();
        WebElement calls = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("pattern-calls")));
        assertThat(calls.getText()).isEqualTo("1 call");
        assertThat(browser.findElement(By.id("pattern-result")).getText()).contains("Website relaunch");
        assertThat(browser.findElement(By.cssSelector("#pattern-detail pre.java")).getText()).contains("QueryRequest.builder()");
        screenshot("access-pattern");

        // Every GET pattern runs as it opens, on the demo data's ids: none answers anything but 200.
        List<WebElement> patterns = browser.findElements(By.cssSelector("#patterns tbody tr"));
        int runs = 0;
        for (int i = 0; i < patterns.size(); i++) {
            WebElement row = browser.findElements(By.cssSelector("#patterns tbody tr")).get(i);
            String name = row.getAttribute("data-name");
            // The list is longer than the window: bring the row into view before clicking it.
            ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView({block: 'center'})", row);
            row.click();
            WebElement run = waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("pattern-run")));
            if (!run.isEnabled()) {
                continue;
            }
            ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView({block: 'center'})", run);
            run.click();
            WebElement meta = waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("pattern-calls")));
            assertThat(browser.findElement(By.id("pattern-meta")).getText()).as(name).contains("→ 200");
            assertThat(meta.getText()).as(name).matches("[1-9][0-9]* calls?");
            runs++;
        }
        assertThat(runs).isGreaterThanOrEqualTo(20);
        assertThat(policyViolations()).as("the console works within its Content-Security-Policy").isEmpty();
    }

    @Test
    void aFinishedCascadeJobIsListedWithAFullProgressBar() throws Exception {
        String suffix = java.util.UUID.randomUUID().toString().substring(0, 8);
        String team = "jobs-team-" + suffix;
        String player = "jobs-player-" + suffix;
        given().contentType("application/json").body("{\"id\":\"" + team + "\",\"name\":\"T\",\"country\":\"T\",\"ranking\":1}")
                .post("/teams").then().statusCode(201);
        given().contentType("application/json").body("{\"id\":\"" + player + "\",\"firstName\":\"A\",\"lastName\":\"B\",\"role\":\"batter\"}")
                .post("/players").then().statusCode(201);
        for (int n = 1; n <= 3; n++) {
            given().contentType("application/json").body("{\"selectionNumber\":" + n + ",\"teamId\":\"" + team
                    + "\",\"playerId\":\"" + player + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}")
                    .post("/squads/{s}/selections", "jobs-" + suffix).then().statusCode(201);
        }
        String job = given().contentType("application/merge-patch+json").body("{\"firstName\":\"C\"}")
                .patch("/players/{id}", player).then().statusCode(200).extract().path("job");

        browser.get(console.toString());
        browser.findElement(By.id("tab-jobs")).click();
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("jobs-state"))).selectByVisibleText("done");
        browser.findElement(By.id("jobs-run")).click();
        WebElement row = waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr.job[data-id='" + job + "']")));
        assertThat(row.getText()).contains("Player " + player + " v2").contains("done").contains("3 written · 0 current · 0 failed of 3");
        WebElement written = row.findElement(By.cssSelector(".progress .written"));
        assertThat(written.getAttribute("style")).contains("width: 100%");
        screenshot("jobs");
        assertThat(policyViolations()).as("the console works within its Content-Security-Policy").isEmpty();
    }

    @Test
    void aFinishedReconcileJobIsListedWithItsCounts() throws Exception {
        String player = "reconcile-player-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        given().contentType("application/json").body("{\"id\":\"" + player + "\",\"firstName\":\"A\",\"lastName\":\"B\",\"role\":\"batter\"}")
                .post("/players").then().statusCode(201);
        String job = given().contentType("application/json").body("{\"entity\":\"player\",\"id\":\"" + player + "\"}")
                .post("/maintenance/reconcile").then().statusCode(202).extract().path("id");
        dev.cairn.Eventually.within(java.time.Duration.ofSeconds(30), () -> given().get("/maintenance/jobs/{id}", job)
                .then().statusCode(200).body("state", org.hamcrest.Matchers.equalTo("done")));

        browser.get(console.toString());
        browser.findElement(By.id("tab-jobs")).click();
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("jobs-kind"))).selectByVisibleText("Reconcile jobs");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("jobs-state"))).selectByVisibleText("done");
        browser.findElement(By.id("jobs-run")).click();
        WebElement row = waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr.job[data-id='" + job + "']")));
        assertThat(row.getText()).contains("reconcile: Player " + player).contains("done")
                .contains("0 repaired · 0 current · 0 orphaned · 0 failed of 0 checked");
        assertThat(policyViolations()).as("the console works within its Content-Security-Policy").isEmpty();
    }
}
