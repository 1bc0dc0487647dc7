package dev.cairn.platform.auth;

import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.smallrye.jwt.build.Jwt;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * Tokens of an identity provider that names roles and tenants its own way (Amazon Cognito: {@code cognito:groups}, and
 * a custom attribute {@code custom:workspaces} holding ids separated by commas), read through the settings the AWS
 * overlay ships: the roles and the tenant scope hold as with Cairn's own claim names.
 */
@QuarkusTest
@TestProfile(CognitoClaimsResourceTest.CognitoProfile.class)
class CognitoClaimsResourceTest {

    public static class CognitoProfile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            var config = new HashMap<>(new AuthEnabledProfile().getConfigOverrides());
            config.put("smallrye.jwt.path.groups", "\"cognito:groups\"");
            config.put("cairn.auth.workspaces-claim", "custom:workspaces");
            return config;
        }
    }

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static String workspace(String id) {
        return "{\"id\":\"" + id + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\",\"seatLimit\":5}";
    }

    static String cognito(String subject, List<String> groups, String workspaces) {
        var claims = Jwt.issuer(TestTokens.ISSUER).audience(TestTokens.AUDIENCE).subject(subject)
                .claim("cognito:groups", groups).issuedAt(Instant.now()).expiresAt(Instant.now().plusSeconds(600));
        if (workspaces != null) {
            claims.claim("custom:workspaces", workspaces);
        }
        return "Bearer " + claims.sign(TestTokens.privateKey());
    }

    @Test
    void cognitoGroupsAreRolesAndItsCustomAttributeIsTheTenantScope() {
        String mine = "cg-" + k;
        String theirs = "cg-other-" + k;
        String writer = cognito("ada-" + k, List.of("cairn-writer"), mine + ", elsewhere-" + k);
        given().header("Authorization", writer).contentType(ContentType.JSON)
                .body(workspace(mine)).post("/workspaces").then().statusCode(201);
        given().header("Authorization", writer).get("/workspaces/{id}", mine).then().statusCode(200)
                .body("id", equalTo(mine));
        given().header("Authorization", cognito("root-" + k, List.of("cairn-admin"), "*")).contentType(ContentType.JSON)
                .body(workspace(theirs)).post("/workspaces").then().statusCode(201);
        given().header("Authorization", writer).get("/workspaces/{id}", theirs).then().statusCode(404);
        // a reader's group allows reads only; no group at all, nothing
        String reader = cognito("bo-" + k, List.of("cairn-reader"), mine);
        given().header("Authorization", reader).get("/workspaces/{id}", mine).then().statusCode(200);
        given().header("Authorization", reader).contentType(ContentType.JSON).body(workspace("x-" + k))
                .post("/workspaces").then().statusCode(403).body("requiredRole", equalTo("cairn-writer"));
        given().header("Authorization", cognito("cy-" + k, List.of(), mine)).get("/workspaces/{id}", mine)
                .then().statusCode(403);
        // without the attribute, no workspace at all
        given().header("Authorization", cognito("di-" + k, List.of("cairn-reader"), null)).get("/workspaces/{id}", mine)
                .then().statusCode(404);
    }
}
