package dev.cairn.platform;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import org.hibernate.validator.HibernateValidatorFactory;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/** The validator factory is built after the start, by Quarkus' own bean, and validates as before. */
@QuarkusTest
class DeferredValidationResourceTest {

    /** A record with the constraints a request body carries. */
    record Workspace(@jakarta.validation.constraints.NotBlank String id,
                     @jakarta.validation.constraints.NotBlank @jakarta.validation.constraints.Size(max = 200) String displayName,
                     @jakarta.validation.constraints.NotBlank String region,
                     @jakarta.validation.constraints.NotNull @jakarta.validation.constraints.Min(1) Integer seatLimit) {
    }

    @Inject
    ValidatorFactory factory;

    @Inject
    Validator validator;

    @Test
    void theInjectedFactoryDefersToQuarkusOwnBeanWhichValidates() {
        HibernateValidatorFactory quarkus = DeferredValidation.quarkusFactory();
        assertThat(factory).isNotSameAs(quarkus);
        assertThat(factory.getClass().getEnclosingClass()).isEqualTo(DeferredValidation.class);
        assertThat(factory.unwrap(HibernateValidatorFactory.class)).isSameAs(factory);
        assertThat(factory.getClockProvider()).isSameAs(quarkus.getClockProvider());

        var violations = validator.validate(new Workspace("ws-ok", " ", "eu-west-1", 0));
        assertThat(violations).extracting(v -> v.getPropertyPath().toString()).containsExactlyInAnyOrder("displayName", "seatLimit");
        assertThat(validator.validate(new Workspace("ws-ok", "Acme", "eu-west-1", 5))).isEmpty();
        assertThat(quarkus.getValidator().validate(new Workspace("ws-ok", " ", "eu-west-1", 0)))
                .extracting(ConstraintViolation::getMessage)
                .containsExactlyInAnyOrderElementsOf(violations.stream().map(ConstraintViolation::getMessage).toList());
    }

    @Inject
    jakarta.enterprise.inject.spi.BeanManager beans;

    @Inject
    DeferredValidation deferred;

    @Test
    void theFactoryIsBuiltWhenTheServiceIsReady() {
        var observers = beans.resolveObserverMethods(new ServiceReady());
        assertThat(observers).anySatisfy(observer -> {
            assertThat(observer.getBeanClass()).isEqualTo(DeferredValidation.class);
            assertThat(observer.isAsync()).isTrue();
        });
        given().port(Management.TEST_PORT).get("/q/health/ready").then().statusCode(200);
        dev.cairn.Eventually.within(java.time.Duration.ofSeconds(10), () ->
                assertThat(deferred.built()).as("Quarkus' factory built once the service reported ready").isTrue());
    }

    @Test
    void aRequestBodyIsStillValidatedAtTheResource() {
        given().contentType("application/json")
                .body("{\"id\":\"ws-deferred\",\"displayName\":\"\",\"region\":\"eu-west-1\",\"seatLimit\":0}")
                .post("/workspaces").then().statusCode(400).contentType("application/problem+json")
                .body(containsString("seatLimit"));
    }
}
