package dev.cairn.shop;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

/**
 * A unique value on an edge: the shop's product–category edges declare {@code unique: {slot: {fields: [slot], scope:
 * categoryId}}} — a category's featured slot holds one product. The edge's PUT takes the slot's sentinel in its own
 * transaction (refused whole when another product holds it, naming the constraint and never that product), its
 * DELETE gives it up, another category has slots of its own, and an edge without a slot holds none.
 */
@QuarkusTest
class CategorySlotUniqueResourceTest {

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static String product() {
        String id = "sp-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}")
                .post("/products").then().statusCode(201);
        return id;
    }

    static String category(String name) {
        String id = "sc-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"" + name + "\"}").post("/categories")
                .then().statusCode(201);
        return id;
    }

    @Test
    void aCategorysSlotHoldsOneProductUntilItsEdgeIsDeleted() {
        String a = product();
        String b = product();
        String kitchen = category("Kitchen");
        String garden = category("Garden");
        given().contentType(ContentType.JSON).body("{\"slot\":1}").put("/products/{p}/categories/{c}", a, kitchen).then()
                .statusCode(201).body("slot", equalTo(1)).body("categoryName", equalTo("Kitchen"))
                .header("X-DynamoDB-Calls", "2");
        String refused = given().contentType(ContentType.JSON).body("{\"slot\":1}")
                .put("/products/{p}/categories/{c}", b, kitchen).then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("UniqueViolation"))
                .body("constraint", equalTo("slot")).body("fields", containsInAnyOrder("slot", "categoryId"))
                .extract().asString();
        assertThat(refused).doesNotContain(a);
        given().get("/products/{p}/categories/{c}", b, kitchen).then().statusCode(404);
        // another category has slots of its own; an edge without a slot holds none
        given().contentType(ContentType.JSON).body("{\"slot\":1}").put("/products/{p}/categories/{c}", b, garden).then()
                .statusCode(201);
        given().contentType(ContentType.JSON).body("{}").put("/products/{p}/categories/{c}", a, garden).then()
                .statusCode(201);
        given().contentType(ContentType.JSON).body("{\"slot\":0}").put("/products/{p}/categories/{c}", b, kitchen).then()
                .statusCode(400).body("errors.field", org.hamcrest.Matchers.hasItem("slot"));
        // the delete gives the slot up, in its own transaction
        given().delete("/products/{p}/categories/{c}", a, kitchen).then().statusCode(204);
        given().contentType(ContentType.JSON).body("{\"slot\":1}").put("/products/{p}/categories/{c}", b, kitchen).then()
                .statusCode(201);
        given().get("/categories/{c}/products", kitchen).then().statusCode(200).body("items.productId", equalTo(java.util.List.of(b)))
                .body("items.slot", equalTo(java.util.List.of(1)));
    }
}
