package dev.cairn.bench.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/** A match: its partition's ONE projected Query, its items folded into the match as the app answers it. */
@Path("/matches/{id}")
public class MatchResource {

    private final DynamoDbAsyncClient dynamo;
    private final ListedQueries.Listed query;

    public MatchResource(DynamoDbAsyncClient dynamo, ListedQueries queries) {
        this.dynamo = dynamo;
        this.query = queries.route("GET /matches/{id}");
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public CompletionStage<Map<String, Object>> get(@RestPath String id) {
        return dynamo.query(query.forId(id)).thenApply(MatchResource::fold);
    }

    /**
     * Items in sort-key order: MATCH (the root), TEAM#n (a team sheet: homeTeam and the team's copy), TEAM#n#COACH
     * and VENUE (a copy in _ref), TEAM#n#PLAYER#id (a selection, ordered by _pos).
     */
    static Map<String, Object> fold(QueryResponse response) {
        Map<String, AttributeValue> root = null;
        Object venue = null;
        var sheets = new ArrayList<Sheet>(2);
        for (Map<String, AttributeValue> item : response.items()) {
            String sk = item.get("sk").s();
            if (sk.equals("MATCH")) {
                root = item;
            } else if (sk.equals("VENUE")) {
                venue = Attributes.value(item.get("_ref"));
            } else if (sk.startsWith("TEAM#")) {
                int end = sk.indexOf('#', 5);
                int number = Integer.parseInt(end < 0 ? sk.substring(5) : sk.substring(5, end));
                while (sheets.size() < number) {
                    sheets.add(new Sheet());
                }
                Sheet sheet = sheets.get(number - 1);
                if (end < 0) {
                    sheet.homeTeam = Attributes.value(item.get("homeTeam"));
                    sheet.team = Attributes.value(item.get("team"));
                } else if (sk.startsWith("#COACH", end)) {
                    sheet.coach = Attributes.value(item.get("_ref"));
                } else {
                    var selection = new LinkedHashMap<String, Object>();
                    selection.put("battingPosition", Attributes.value(item.get("battingPosition")));
                    selection.put("isCaptain", Attributes.value(item.get("isCaptain")));
                    selection.put("player", Attributes.value(item.get("player")));
                    sheet.players.add(new Selection(Long.parseLong(item.get("_pos").n()), selection));
                }
            }
        }
        if (root == null) {
            throw new jakarta.ws.rs.NotFoundException();
        }
        var match = new LinkedHashMap<String, Object>();
        match.put("id", Attributes.string(root, "id"));
        match.put("name", Attributes.string(root, "name"));
        match.put("venue", venue);
        for (int i = 0; i < sheets.size(); i++) {
            match.put("team" + (i + 1), sheets.get(i).toMap());
        }
        return match;
    }

    record Selection(long position, Map<String, Object> fields) {
    }

    static final class Sheet {
        Object homeTeam;
        Object team;
        Object coach;
        final List<Selection> players = new ArrayList<>(16);

        Map<String, Object> toMap() {
            players.sort((a, b) -> Long.compare(a.position(), b.position()));
            var sheet = new LinkedHashMap<String, Object>();
            sheet.put("homeTeam", homeTeam);
            sheet.put("team", team);
            sheet.put("coach", coach);
            var list = new ArrayList<Map<String, Object>>(players.size());
            for (Selection selection : players) {
                list.add(selection.fields());
            }
            sheet.put("players", list);
            return sheet;
        }
    }
}
