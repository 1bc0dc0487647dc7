package dev.cairn.shop;

import dev.cairn.declared.DeclaredModels;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.platform.TestTokens;
import dev.cairn.platform.auth.AuthEnabledProfile;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;

/**
 * The shop's buyers declare a unique value scoped by their tenant ({@code unique: {email: {fields: [email],
 * scope: workspaceId, case: insensitive}}}, {@code tenant: workspaceId}), with authentication on: an email is one
 * buyer's within a workspace, in any case, while another workspace may use it; a taken one is a 409 naming the
 * constraint and never the buyer holding it; a new email moves the sentinel in the buyer's own transaction and a
 * delete frees it; and a caller scoped to another workspace can neither write there nor learn what is taken there.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class ShopBuyerUniqueResourceTest {

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String acme = "bu-a-" + k;
    final String globex = "bu-g-" + k;

    @Inject
    EntityStore store;

    @Inject
    DynamoDbAsyncClient client;

    @Inject
    DeclaredModels models;

    static RequestSpecification as(String bearer) {
        return given().header("Authorization", bearer);
    }

    static String writer(String workspace) {
        return TestTokens.bearer("w-" + workspace, List.of(workspace), "cairn-writer");
    }

    static Response add(String bearer, String workspace, String id, String email) {
        return as(bearer).contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"name\":\"Ann\",\"email\":\"" + email + "\"}")
                .post("/workspaces/{w}/buyers", workspace);
    }

    /** The buyer holding this email in the workspace, read from its sentinel straight from the table; null: free. */
    String holder(String workspace, String email) {
        var constraint = models.plan().entity("Buyer").model().unique().get(0);
        var key = constraint.sentinel("Buyer", Map.of("email", email, "workspaceId", workspace)).orElseThrow();
        var item = client.getItem(r -> r.tableName(store.table()).key(key.toAttributes()).consistentRead(true)).join();
        return item.hasItem() && !item.item().isEmpty() ? item.item().get(UniqueSentinels.OWNER_SK).s() : null;
    }

    @Test
    void anEmailIsOneBuyersWithinAWorkspaceInAnyCaseWhileAnotherWorkspaceMayUseIt() {
        String email = "Ann." + k + "@Example.org";
        add(writer(acme), acme, "ann", email).then().statusCode(201).body("email", equalTo(email));
        // the same address in another case, in the same workspace: refused, naming the constraint, not the holder
        Response taken = add(writer(acme), acme, "ann2", email.toLowerCase());
        taken.then().statusCode(409).contentType("application/problem+json").body("code", equalTo("UniqueViolation"))
                .body("constraint", equalTo("email")).body("fields", containsInAnyOrder("email", "workspaceId"));
        assertThat(taken.asString()).doesNotContain("\"ann\"").doesNotContain("BUYER#ann");
        as(writer(acme)).get("/workspaces/{w}/buyers/{b}", acme, "ann2").then().statusCode(404);
        // another workspace: its own scope, so the same address is free there
        add(writer(globex), globex, "ann", email.toUpperCase()).then().statusCode(201);
        // one sentinel per workspace, whatever the case the address came in
        assertThat(holder(acme, email.toLowerCase())).isEqualTo("BUYER#ann");
        assertThat(holder(globex, email)).isEqualTo("BUYER#ann");
        as(writer(acme)).get("/workspaces/{w}/buyers", acme).then().statusCode(200).body("items.id", containsInAnyOrder("ann"));
    }

    @Test
    void aNewEmailMovesTheValueInTheBuyersOwnTransactionAndADeleteFreesIt() {
        String first = "first-" + k + "@example.org";
        String second = "second-" + k + "@example.org";
        add(writer(acme), acme, "bo", first).then().statusCode(201).header("ETag", "\"1\"");
        add(writer(acme), acme, "cy", second).then().statusCode(201);
        // a change to a taken address is refused and writes nothing
        as(writer(acme)).contentType("application/merge-patch+json").body("{\"email\":\"" + second.toUpperCase() + "\"}")
                .patch("/workspaces/{w}/buyers/{b}", acme, "bo").then().statusCode(409).body("code", equalTo("UniqueViolation"));
        as(writer(acme)).get("/workspaces/{w}/buyers/{b}", acme, "bo").then().statusCode(200).header("ETag", "\"1\"")
                .body("email", equalTo(first));
        // a free one moves: the old value is free at once, the new one taken
        String third = "third-" + k + "@example.org";
        as(writer(acme)).contentType("application/merge-patch+json").body("{\"email\":\"" + third + "\"}")
                .patch("/workspaces/{w}/buyers/{b}", acme, "bo").then().statusCode(200).header("ETag", "\"2\"");
        add(writer(acme), acme, "di", first).then().statusCode(201);
        add(writer(acme), acme, "ed", third).then().statusCode(409);
        assertThat(holder(acme, first)).isEqualTo("BUYER#di");
        assertThat(holder(acme, third)).isEqualTo("BUYER#bo");
        // a delete frees its value
        as(writer(acme)).delete("/workspaces/{w}/buyers/{b}", acme, "cy").then().statusCode(204);
        assertThat(holder(acme, second)).isNull();
        add(writer(acme), acme, "ed", second).then().statusCode(201);
        assertThat(holder(acme, second)).isEqualTo("BUYER#ed");
    }

    @Test
    void aCallerScopedToAnotherWorkspaceNeitherWritesThereNorLearnsWhatIsTaken() {
        String email = "held-" + k + "@example.org";
        add(writer(acme), acme, "fay", email).then().statusCode(201);
        // globex's writer adding to acme: the workspace is not theirs, whether or not the address is taken
        Response foreignTaken = add(writer(globex), acme, "gus", email);
        Response foreignFree = add(writer(globex), acme, "gus", "free-" + k + "@example.org");
        assertThat(foreignTaken.statusCode()).isEqualTo(foreignFree.statusCode()).isBetween(403, 404);
        assertThat(foreignTaken.<String>path("code")).isEqualTo(foreignFree.path("code"));
        foreignTaken.then().body("code", not(equalTo("UniqueViolation"))).body(not(containsString("fay")));
        // and acme's buyer reads as missing to them
        as(writer(globex)).get("/workspaces/{w}/buyers/{b}", acme, "fay").then().statusCode(404);
        as(writer(globex)).get("/workspaces/{w}/buyers", acme).then().statusCode(404)
                .body("detail", equalTo("workspace " + acme + " does not exist")).body(not(containsString("fay")));
        as(writer(globex)).get("/workspaces/{w}/buyers/{b}", acme, "fay").then().statusCode(404)
                .body("detail", equalTo("workspace " + acme + " does not exist"));
        assertThat(holder(acme, email)).isEqualTo("BUYER#fay");
        assertThat(holder(acme, "free-" + k + "@example.org")).isNull();
    }
}
