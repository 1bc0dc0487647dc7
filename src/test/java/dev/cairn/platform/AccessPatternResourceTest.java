package dev.cairn.platform;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

@QuarkusTest
class AccessPatternResourceTest {

    @Test
    void everyDomainListsItsAccessPatternsWithTheExactRequestAndNoCall() {
        given().get("/access-patterns").then().statusCode(200)
                .header("X-DynamoDB-Calls", "0")
                .body("route", hasItems("GET /workspaces/{id}?include=projects", "GET /courses/{cid}/students",
                        "GET /users/{uid}/posts", "GET /posts/{postId}?include=comments", "GET /projects?status={status}"))
                .body("find { it.route == 'GET /workspaces/{id}?include=projects' }.operation", equalTo("Query"))
                .body("find { it.route == 'GET /workspaces/{id}?include=projects' }.request.KeyConditionExpression",
                        equalTo("#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2")) // from PROJ# up to WORKSPACE: projects only
                .body("find { it.route == 'GET /workspaces/{id}?include=projects' }.request.ExpressionAttributeValues.':v2'.S",
                        equalTo("WORKSPACE"))
                .body("find { it.route == 'GET /workspaces/{id}?include=projects' }.request.ScanIndexForward", equalTo(false))
                .body("find { it.route == 'GET /workspaces/{id}?include=projects' }.request.ExpressionAttributeValues.':v0'.S",
                        equalTo("WS#acme"))
                .body("find { it.route == 'GET /courses/{cid}/students' }.request.IndexName", equalTo("gsi1"))
                .body("find { it.route == 'GET /students/{sid}' }.request.Key.pk.S", equalTo("STU#a91"));
    }
}
