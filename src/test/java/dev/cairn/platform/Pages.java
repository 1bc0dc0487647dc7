package dev.cairn.platform;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Walks a list route page by page, following {@code next} until it is null. */
public final class Pages {

    private static final int MAX_PAGES = 1000;

    private Pages() {
    }

    /**
     * Every page, each checked to be a 200. {@code request} builds a fresh request for one page (the cursor is
     * added to it), {@code send} sends it; callers assert on the pages they get back.
     */
    public static List<Response> walk(Supplier<RequestSpecification> request, Function<RequestSpecification, Response> send) {
        var pages = new ArrayList<Response>();
        String cursor = null;
        do {
            RequestSpecification spec = request.get();
            if (cursor != null) {
                spec.queryParam("cursor", cursor);
            }
            Response page = send.apply(spec).then().statusCode(200).extract().response();
            pages.add(page);
            cursor = page.path("next");
            assertThat(pages).as("pages before next ran out").hasSizeLessThan(MAX_PAGES);
        } while (cursor != null);
        return pages;
    }
}
