package dev.cairn.platform.console;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The expression builder in headless Chromium: the first seed's workspace query and the second seed's enrollment guard
 * composed by hand, their expressions, placeholders and items read off the page; a mistake explained at its field; an
 * access pattern opened in the builder and run. Screenshots go to target/console-builder*.png.
 */
@QuarkusTest
class ExpressionBuilderBrowserTest {

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
        options.setBinary(ConsoleBrowserTest.executable("chromium", "chromium-browser", "google-chrome"));
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                "--disable-dev-shm-usage", "--window-size=1500,1300", "--user-data-dir=" + profile);
        var logging = new LoggingPreferences();
        logging.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logging);
        var service = new ChromeDriverService.Builder().usingDriverExecutable(new File(ConsoleBrowserTest.executable("chromedriver")))
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            // What the page reported (script errors, refused requests): in the test's output, for a failure's reader.
            browser.manage().logs().get(LogType.BROWSER).getAll().stream().filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                    .forEach(e -> System.err.println("browser: " + e.getMessage()));
            browser.quit();
        }
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    WebDriverWait waiting() {
        return new WebDriverWait(browser, Duration.ofSeconds(20));
    }

    void screenshot(String name) throws Exception {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target/console-" + name + ".png"), png);
    }

    List<String> policyViolations() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy")).toList();
    }

    WebElement field(String name) {
        return waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#view-builder [data-field='" + name + "']")));
    }

    void type(String name, String text) {
        WebElement input = field(name);
        input.clear();
        input.sendKeys(text);
    }

    void choose(String name, String option) {
        new Select(field(name)).selectByValue(option);
    }

    /** Renames a placeholder in the rendered tables (they are drawn again after each change, so it is looked up anew). */
    void rename(String table, String placeholder, String alias) {
        waiting().ignoring(StaleElementReferenceException.class).until(driver -> {
            WebElement input = driver.findElement(By.cssSelector("#" + table + " tr[data-placeholder='" + placeholder + "'] input.alias"));
            input.clear();
            input.sendKeys(alias, Keys.TAB);
            return true;
        });
        String renamed = placeholder.charAt(0) + alias;
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#" + table + " tr[data-placeholder='" + renamed + "']")));
    }

    String text(String id) {
        return waiting().ignoring(StaleElementReferenceException.class).until(driver -> driver.findElement(By.id(id)).getText());
    }

    /** A rendered placeholder table: placeholder → its second column. */
    Map<String, String> table(String id) {
        return waiting().ignoring(StaleElementReferenceException.class).until(driver -> {
            var out = new LinkedHashMap<String, String>();
            for (WebElement row : driver.findElements(By.cssSelector("#" + id + " tbody tr"))) {
                out.put(row.getAttribute("data-placeholder"), row.findElements(By.tagName("td")).get(1).getText().replace(" reserved word", ""));
            }
            return out;
        });
    }

    @Test
    void theFirstSeedsQueryIsComposedReadAndRun() throws Exception {
        List<String> expected = given().queryParam("kind", "workspace").queryParam("id", "acme").queryParam("limit", "100")
                .get("/console/api/collections").then().statusCode(200).extract().jsonPath().getList("items.sk", String.class)
                .stream().filter(sk -> sk.startsWith("PROJ#")).sorted(Comparator.reverseOrder()).limit(25).toList();
        assertThat(expected).isNotEmpty();

        browser.get(console.toString());
        waiting().until(ExpectedConditions.elementToBeClickable(By.id("tab-builder"))).click();
        // A Query on the table opens with its partition key to fill in.
        assertThat(field("key[0].path").getAttribute("value")).isEqualTo("pk");
        type("key[0].values[0]", "WS#acme");
        browser.findElement(By.id("builder-add-key")).click();
        assertThat(field("key[1].path").getAttribute("value")).isEqualTo("sk");
        choose("key[1].op", "begins_with");
        type("key[1].values[0]", "PROJ#");
        new Select(browser.findElement(By.id("builder-order"))).selectByValue("desc");
        waiting().until(driver -> text("builder-expression-keyCondition").equals("#pk = :pk AND begins_with(#sk, :sk)"));

        // The seed names its placeholders after EntityRef and Detail; Cairn's keys are pk and sk.
        rename("builder-names", "#pk", "er");
        rename("builder-names", "#sk", "d");
        rename("builder-values", ":pk", "er");
        rename("builder-values", ":sk", "p");
        waiting().until(driver -> text("builder-expression-keyCondition").equals("#er = :er AND begins_with(#d, :p)"));
        assertThat(table("builder-names")).containsExactly(Map.entry("#er", "pk"), Map.entry("#d", "sk"));
        assertThat(table("builder-values")).containsExactly(Map.entry(":er", "{\"S\":\"WS#acme\"}"), Map.entry(":p", "{\"S\":\"PROJ#\"}"));
        JsonNode request = SnippetTools.parse(text("builder-request"));
        assertThat(request.path("KeyConditionExpression").asText()).isEqualTo("#er = :er AND begins_with(#d, :p)");
        assertThat(request.path("ExpressionAttributeNames").toString()).isEqualTo("{\"#er\":\"pk\",\"#d\":\"sk\"}");
        assertThat(request.path("ExpressionAttributeValues").toString()).isEqualTo("{\":er\":{\"S\":\"WS#acme\"},\":p\":{\"S\":\"PROJ#\"}}");
        assertThat(request.path("ScanIndexForward").asBoolean(true)).isFalse();
        assertThat(text("builder-snippet-cli")).contains("--key-condition-expression '#er = :er AND begins_with(#d, :p)'")
                .contains("--no-scan-index-forward");
        assertThat(text("builder-snippet-java")).contains(".keyConditionExpression(\"#er = :er AND begins_with(#d, :p)\")");
        assertThat(text("builder-snippet-javascript")).contains("KeyConditionExpression: \"#er = :er AND begins_with(#d, :p)\"");

        browser.findElement(By.id("builder-run")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("builder-calls"), "1 call"));
        List<String> shown = browser.findElements(By.cssSelector("#builder-items tr.item")).stream()
                .map(row -> row.getAttribute("data-sk")).toList();
        assertThat(shown).containsExactlyElementsOf(expected);
        assertThat(browser.findElement(By.cssSelector("#builder-items td[data-attr='title'] .dtype")).getText()).isEqualTo("S");
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0)");
        screenshot("builder");
        ((JavascriptExecutor) browser).executeScript("document.getElementById('builder-status').scrollIntoView()");
        screenshot("builder-items");
        assertThat(policyViolations()).as("the builder works within the Content-Security-Policy").isEmpty();
    }

    @Test
    void theSecondSeedsEnrollmentGuardIsComposedAndShownNotRun() throws Exception {
        browser.get(console.toString());
        waiting().until(ExpectedConditions.elementToBeClickable(By.id("tab-builder"))).click();
        field("key[0].path");
        new Select(browser.findElement(By.id("builder-operation"))).selectByValue("UpdateItem");
        // A write names its item by the table's whole key.
        waiting().until(driver -> field("key[1].path").getAttribute("value").equals("sk"));
        type("key[0].values[0]", "STU#a91");
        type("key[1].values[0]", "ENROLL#CRS#math204");
        browser.findElement(By.id("builder-add-condition")).click();
        type("condition.clauses[0].path", "pk");
        choose("condition.clauses[0].op", "attribute_not_exists");
        browser.findElement(By.id("builder-add-update")).click();
        type("update[0].path", "gsi1pk");
        type("update[0].value", "CRS#math204");
        browser.findElement(By.id("builder-add-update")).click();
        type("update[1].path", "gsi1sk");
        type("update[1].value", "STU#a91");

        waiting().until(driver -> text("builder-expression-condition").equals("attribute_not_exists(#pk)"));
        waiting().until(driver -> text("builder-expression-update").equals("SET #gsi1pk = :gsi1pk, #gsi1sk = :gsi1sk"));
        assertThat(table("builder-names")).containsExactly(Map.entry("#pk", "pk"), Map.entry("#gsi1pk", "gsi1pk"),
                Map.entry("#gsi1sk", "gsi1sk"));
        assertThat(table("builder-values")).containsExactly(Map.entry(":gsi1pk", "{\"S\":\"CRS#math204\"}"),
                Map.entry(":gsi1sk", "{\"S\":\"STU#a91\"}"));
        JsonNode request = SnippetTools.parse(text("builder-request"));
        assertThat(request.path("Key").toString()).isEqualTo("{\"pk\":{\"S\":\"STU#a91\"},\"sk\":{\"S\":\"ENROLL#CRS#math204\"}}");
        assertThat(request.path("ConditionExpression").asText()).isEqualTo("attribute_not_exists(#pk)");
        assertThat(text("builder-snippet-cli")).startsWith("aws dynamodb update-item").contains("--condition-expression 'attribute_not_exists(#pk)'");
        assertThat(browser.findElement(By.id("builder-run")).isEnabled()).as("a write is never run").isFalse();
        assertThat(browser.findElement(By.id("builder-write-note")).isDisplayed()).isTrue();
        screenshot("builder-write");
        assertThat(policyViolations()).isEmpty();
    }

    @Test
    void aMistakeIsExplainedAtTheFieldWhereItIsTyped() {
        browser.get(console.toString());
        waiting().until(ExpectedConditions.elementToBeClickable(By.id("tab-builder"))).click();
        type("key[0].values[0]", "WS#acme");
        // A range condition on the partition key.
        choose("key[0].op", "begins_with");
        WebElement error = waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".field-error[data-for='key[0].op']")));
        assertThat(error.getText()).contains("pk is the partition key").contains("= only");
        assertThat(field("key[0].op").getAttribute("class")).contains("invalid");
        choose("key[0].op", "=");
        waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector(".field-error[data-for='key[0].op']")));
        // A begins_with on an attribute the models declare a number (a student's year).
        browser.findElement(By.id("builder-add-filter")).click();
        type("filter.clauses[0].path", "year");
        choose("filter.clauses[0].op", "begins_with");
        WebElement number = waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".field-error[data-for='filter.clauses[0].op']")));
        assertThat(number.getText()).contains("begins_with works on strings and binaries").contains("year is a number (N)");
        assertThat(field("filter.clauses[0].values[0].type").getAttribute("value")).as("the models' type is the default").isEqualTo("N");
        assertThat(policyViolations()).isEmpty();
    }

    @Test
    void anAccessPatternOpensInTheBuilderAndRuns() throws Exception {
        browser.get(console.toString());
        waiting().until(ExpectedConditions.elementToBeClickable(By.id("tab-patterns"))).click();
        WebElement roster = waiting().until(ExpectedConditions.elementToBeClickable(By.xpath("//tr[td[2][text()='GET /courses/{cid}/students']]")));
        roster.click();
        assertThat(waiting().until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#pattern-detail pre.snippet.cli"))).getText())
                .startsWith("aws dynamodb query").contains("--index-name gsi1");
        browser.findElement(By.id("pattern-open-builder")).click();
        // The pattern's own request, placeholders and all.
        waiting().until(driver -> text("builder-expression-keyCondition").equals("#n0 = :v0 AND begins_with(#n1, :v1)"));
        assertThat(new Select(browser.findElement(By.id("builder-index"))).getFirstSelectedOption().getAttribute("value")).isEqualTo("gsi1");
        assertThat(field("key[0].values[0]").getAttribute("value")).isEqualTo("CRS#math204");
        browser.findElement(By.id("builder-run")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("builder-calls"), "1 call"));
        assertThat(browser.findElements(By.cssSelector("#builder-items tr.item")).stream().map(r -> r.getAttribute("data-pk")))
                .contains("STU#a91", "STU#b30");
        assertThat(policyViolations()).isEmpty();
    }
}
