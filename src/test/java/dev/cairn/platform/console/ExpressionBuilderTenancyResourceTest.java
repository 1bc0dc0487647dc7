package dev.cairn.platform.console;

import dev.cairn.core.expr.builder.BuilderSpec;
import dev.cairn.core.expr.builder.Clause;
import dev.cairn.core.expr.builder.Operand;
import dev.cairn.platform.TestTokens;
import dev.cairn.platform.auth.AuthEnabledProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * The builder follows the console's rules with authentication on: admins only; a scoped admin reads its own tenants'
 * partitions, another tenant's reads as empty (no call), and a Scan or an index query, which mix every tenant's
 * items, are refused.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class ExpressionBuilderTenancyResourceTest {

    private static RequestSpecification as(String bearer, Object spec) {
        return given().header("Authorization", bearer).contentType(ContentType.JSON).body(spec);
    }

    private static String workspace() {
        String id = "bt-" + UUID.randomUUID().toString().substring(0, 8);
        as(TestTokens.admin(), "{\"id\":\"" + id + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\",\"seatLimit\":5}")
                .post("/workspaces").then().statusCode(201);
        as(TestTokens.admin(), "{\"title\":\"P\",\"status\":\"PAUSED\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", id).then().statusCode(201);
        return id;
    }

    private static BuilderSpec partition(String pk) {
        return BuilderSpec.query(null, List.of(Clause.test("pk", "=", Operand.of("S", pk))));
    }

    @Test
    void aScopedAdminReadsItsOwnPartitionsOnly() {
        String mine = workspace();
        String theirs = workspace();
        String scoped = TestTokens.bearer("ada", List.of(mine), "cairn-admin");

        as(scoped, partition("WS#" + theirs)).post("/console/api/builder/run").then().statusCode(200)
                .header("X-DynamoDB-Calls", "0").body("items", equalTo(List.of())).body("next", equalTo(null));
        as(scoped, new BuilderSpec("GetItem", null, List.of(Clause.test("pk", "=", Operand.of("S", "WS#" + theirs)),
                Clause.test("sk", "=", Operand.of("S", "META"))), null, null, false, null, false, null, null, null))
                .post("/console/api/builder/run").then().statusCode(200).header("X-DynamoDB-Calls", "0").body("count", equalTo(0));
        as(scoped, partition("WS#" + mine)).post("/console/api/builder/run").then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("count", equalTo(2));
        // Shared domains are every tenant's.
        as(scoped, partition("CRS#math204")).post("/console/api/builder/run").then().statusCode(200).header("X-DynamoDB-Calls", "1");

        as(scoped, new BuilderSpec("Scan", null, List.of(), null, null, false, 10, false, null, null, null))
                .post("/console/api/builder/run").then().statusCode(403).contentType("application/problem+json")
                .body("code", equalTo("Forbidden")).header("X-DynamoDB-Calls", "0");
        as(scoped, BuilderSpec.query("gsi1", List.of(Clause.test("gsi1pk", "=", Operand.of("S", "STATUS#PAUSED")))))
                .post("/console/api/builder/run").then().statusCode(403).body("code", equalTo("Forbidden"));
        // Composing is no read: the rendering needs no scope.
        as(scoped, partition("WS#" + theirs)).post("/console/api/builder/render").then().statusCode(200);

        String admin = TestTokens.admin();
        as(admin, partition("WS#" + theirs)).post("/console/api/builder/run").then().statusCode(200).body("count", equalTo(2));
        as(admin, new BuilderSpec("Scan", null, List.of(), null, null, false, 10, false, null, null, null))
                .post("/console/api/builder/run").then().statusCode(200);
    }

    @Test
    void theBuilderIsForAdmins() {
        String writer = TestTokens.bearer("wes", List.of("*"), "cairn-writer");
        as(writer, partition("CRS#math204")).post("/console/api/builder/render").then().statusCode(403);
        as(writer, partition("CRS#math204")).post("/console/api/builder/run").then().statusCode(403).header("X-DynamoDB-Calls", "0");
        given().get("/console/api/builder/shape").then().statusCode(401);
    }
}
