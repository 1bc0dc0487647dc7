package dev.cairn.declared;

import dev.cairn.core.model.DomainModel;
import dev.cairn.core.model.DomainPlan;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every model file the application ships is read, planned and routed without a table. */
class ModelFilesTest {

    @Test
    void everyShippedModelFileIsServable() {
        DomainPlan plan = ModelFiles.plan(Thread.currentThread().getContextClassLoader());
        assertThat(plan.domains()).extracting(DomainModel::name).containsExactly("Cricket", "Library", "School", "Shop",
                "Social", "Workspaces");
        assertThat(plan.domains()).extracting(DomainModel::file).containsExactly("models/cricket.yaml", "models/library.yaml",
                "models/school.yaml", "models/shop.yaml", "models/social.yaml", "models/workspaces.yaml");
        assertThat(plan.cascades()).extracting(spec -> spec.entity()).containsExactlyInAnyOrder("Book", "Author", "Student", "Course",
                "Team", "Player", "Coach", "Venue", "Product", "Category");
        assertThat(plan.dependents("Member")).isNotNull();
        assertThat(plan.dependents("Loan")).isNull();
        var routes = new DeclaredRoutes(plan).all().stream().map(r -> r.method() + " " + r.template()).toList();
        assertThat(routes).contains("POST /students", "PUT /students/{sid}/enrollments/{cid}", "GET /courses/{cid}/students",
                "POST /members/{memberId}/loans", "GET /books/{bookId}/page", "DELETE /authors/{authorId}",
                "GET /workspaces/{id}/projects", "GET /projects",
                "POST /orders", "GET /order-statuses/{status}/orders", "GET /brands/{brand}/products",
                "GET /customers/{customerId}/events", "GET /categories/{categoryId}/products");
        assertThat(routes).doesNotHaveDuplicates();
        plan.domains().forEach(domain -> assertThat(domain.demo()).as(domain.name() + " has demo items").isNotEmpty());
    }
}
