package dev.cairn;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The status a GET answers, or -1 while nothing answers: how the process tests poll a service they started. */
final class HttpProbe {

    private HttpProbe() {
    }

    static int status(HttpClient http, String url, Duration timeout) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
