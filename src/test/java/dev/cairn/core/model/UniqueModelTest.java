package dev.cairn.core.model;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading {@code unique} declarations, and the sentinel keys and writes they give (pure: no DynamoDB). */
class UniqueModelTest {

    static final String MODEL = """
            domain: Crm
            entities:
              Workspace:
                key: { pk: "WS#{id}", sk: WS }
                path: /workspaces/{id}
                fields:
                  id: id
                  name: { type: string, required: true }
              Contact:
                key: { pk: "CONTACT#{contactId}", sk: PROFILE }
                path: /contacts/{contactId}
                fields:
                  contactId: id
                  workspaceId: { type: id, required: true }
                  email: { type: string, maxLength: 254 }
                  phone: { type: string }
                  country: { type: string }
                  tags: { type: list, items: { type: string } }
                unique:
                  email: { fields: [email], scope: workspaceId, case: insensitive, softDelete: release }
                  phone: { fields: [country, phone] }
            """;

    static ModelException failure(String yaml) {
        try {
            ModelReader.read("models/crm.yaml", yaml);
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the model was accepted");
    }

    static UniqueModel email() {
        return ModelReader.read("models/crm.yaml", MODEL).entity("Contact").unique().get(0);
    }

    @Test
    void aDeclarationIsReadWithItsFieldsScopeCaseRuleAndSoftDeleteChoice() {
        var unique = ModelReader.read("models/crm.yaml", MODEL).entity("Contact").unique();
        assertThat(unique).hasSize(2);
        UniqueModel email = unique.get(0);
        assertThat(email.name()).isEqualTo("email");
        assertThat(email.fields()).containsExactly("email");
        assertThat(email.scope()).containsExactly("workspaceId");
        assertThat(email.caseInsensitive()).isTrue();
        assertThat(email.softDelete()).isEqualTo(UniqueModel.SoftDelete.RELEASE);
        assertThat(email.allFields()).containsExactly("email", "workspaceId");
        UniqueModel phone = unique.get(1);
        assertThat(phone.fields()).containsExactly("country", "phone");
        assertThat(phone.scope()).isEmpty();
        assertThat(phone.caseInsensitive()).isFalse();
        assertThat(phone.softDelete()).isEqualTo(UniqueModel.SoftDelete.KEEP);
        assertThat(ModelReader.read("models/crm.yaml", MODEL).entity("Workspace").unique()).isEmpty();
    }

    @Test
    void badDeclarationsAreRefusedNamingTheFileTheLineAndWhatToFix() {
        String line = "email: { fields: [email], scope: workspaceId, case: insensitive, softDelete: release }";
        ModelException e = failure(MODEL.replace(line, "email: { fields: [mail] }"));
        assertThat(e.getMessage()).startsWith("models/crm.yaml:20: entities.Contact.unique.email.fields: no field 'mail'");
        assertThat(failure(MODEL.replace(line, "email: { fields: [tags] }")).getMessage())
                .contains("models/crm.yaml:20:").contains("'tags' is list: a unique value is made of single values");
        assertThat(failure(MODEL.replace(line, "email: { fields: [email], case: upper }")).getMessage())
                .contains(":20: entities.Contact.unique.email.case: the case rule is exact or insensitive, not 'upper'");
        assertThat(failure(MODEL.replace(line, "email: { fields: [email], softDelete: forget }")).getMessage())
                .contains(":20: entities.Contact.unique.email.softDelete: a soft-deleted item keeps or releases");
        assertThat(failure(MODEL.replace(line, "email: { fields: [email], scope: email }")).getMessage())
                .contains("'email' is both constrained and the scope");
        assertThat(failure(MODEL.replace(line, "email: { scope: workspaceId }")).getMessage())
                .contains(":20: entities.Contact.unique.email: 'fields' is required");
        assertThat(failure(MODEL.replace(line, "email: { fields: [email], size: 3 }")).getMessage())
                .contains("unknown key 'size'");
        assertThat(failure(MODEL.replace(line, "Email: { fields: [email] }")).getMessage())
                .contains("a unique constraint's name is a word");
        assertThat(failure(MODEL.replace(line, "again: { fields: [phone, country] }")).getMessage())
                .contains(":21: entities.Contact.unique.phone: 'again' constrains the same fields in the same scope");
        assertThat(failure(MODEL.replace(line, "email: { fields: [workspaceId], case: insensitive }")).getMessage())
                .contains("case: insensitive needs a string field");
    }

    @Test
    void anEntityOthersCopyFromDeclaresUniqueValuesItsCascadeKeeps() {
        String copied = MODEL + """
              Note:
                key: { pk: "NOTE#{noteId}", sk: NOTE }
                path: /notes/{noteId}
                fields:
                  noteId: id
                refs:
                  contactId: { entity: Contact, copy: { contactEmail: email } }
            """;
        var model = ModelReader.read("models/crm.yaml", copied);
        assertThat(model.entity("Contact").unique()).extracting(UniqueModel::name).containsExactly("email", "phone");
        assertThat(model.entity("Note").refs().get(0).copies()).containsEntry("contactEmail", "email");
    }

    @Test
    void anAggregateRootDeclaresUniqueValuesOfItsOwnFieldsAndMembersStillCannot() {
        String root = AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("    label: HEAD\n", "    label: HEAD\n    unique: { title: { fields: [title], case: insensitive } }\n");
        var fixture = ModelReader.read("models/league.yaml", root).aggregates().get(0);
        assertThat(fixture.unique()).singleElement().satisfies(unique -> {
            assertThat(unique.name()).isEqualTo("title");
            assertThat(unique.fields()).containsExactly("title");
            assertThat(unique.caseInsensitive()).isTrue();
        });
        // the sentinel's key names the aggregate, as an entity's names the entity
        assertThat(fixture.unique().get(0).sentinel("Fixture", Map.of("title", "Derby")).orElseThrow().pk())
                .startsWith("UNIQUE#Fixture#title#");
        // a member's field, or a ref, is not the root's own scalar
        assertThatFailure(AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("    label: HEAD\n", "    label: HEAD\n    unique: { side: { fields: [colours] } }\n"))
                .contains("no field 'colours'");
        assertThatFailure(AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("    label: HEAD\n", "    label: HEAD\n    unique: { title: { fields: [title], softDelete: release } }\n"))
                .contains("this aggregate is not soft-deleted");
    }

    @Test
    void aMemberDeclaresUniqueValuesOfItsOwnFieldsScopedByItsOwnOrTheRootsAndAPartsHoldInEveryBinding() {
        // a part (both sides share its item type) and a one member; the part's scope is the root's title
        String members = AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("        label: SIDE\n", "        label: SIDE\n        unique: { colours: { fields: [colours], scope: title, case: insensitive } }\n")
                .replace("one: { type: FixtureNotes, label: NOTES, fields:",
                        "one: { type: FixtureNotes, label: NOTES, unique: { text: { fields: text } }, fields:");
        var fixture = ModelReader.read("models/league.yaml", members).aggregates().get(0);
        assertThat(fixture.unique()).isEmpty();
        assertThat(fixture.memberUnique()).containsOnlyKeys("FixtureSide", "FixtureNotes");
        assertThat(fixture.memberUnique().get("FixtureSide")).singleElement().satisfies(unique -> {
            assertThat(unique.fields()).containsExactly("colours");
            assertThat(unique.scope()).containsExactly("title");
            assertThat(unique.caseInsensitive()).isTrue();
            // the sentinel's key names the member's item type
            assertThat(unique.sentinel("FixtureSide", Map.of("colours", "Red", "title", "Derby")).orElseThrow().pk())
                    .isEqualTo("UNIQUE#FixtureSide#colours#Derby#red");
        });
        // a member's value is made of its own fields: the root's may only scope it
        assertThatFailure(AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("        label: SIDE\n", "        label: SIDE\n        unique: { t: { fields: [title] } }\n"))
                .contains("'t': 'title' is the root's: a member's unique value is made of its own fields");
        assertThatFailure(AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("        label: SIDE\n", "        label: SIDE\n        unique: { c: { fields: [shirt] } }\n"))
                .contains("no field 'shirt'");
        assertThatFailure(AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("        label: SIDE\n", "        label: SIDE\n        unique: { c: { fields: [colours], softDelete: release } }\n"))
                .contains("this aggregate is not soft-deleted");
        // a copy member holds another entity's values: none of its own to make unique
        assertThatFailure(AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("type: FixtureVenue, label: VENUE,", "type: FixtureVenue, label: VENUE, unique: { n: { fields: [name] } },"))
                .contains("'unique' is reserved for a coming entity feature");
    }

    @Test
    void anAggregateThatExpiresCannotDeclareUniqueValuesYet() {
        String expiring = AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("      title: { type: string, required: true, maxLength: 100 }\n",
                        "      title: { type: string, required: true, maxLength: 100 }\n      ends: { type: instant, required: true }\n")
                .replace("    label: HEAD\n", "    label: HEAD\n    ttl: ends\n    unique: { title: { fields: [title] } }\n");
        assertThatFailure(expiring).contains("an aggregate that expires (ttl) cannot declare unique values yet");
        String expiringMember = AggregateDeclarationTest.league("{ index: gsi1 }")
                .replace("      title: { type: string, required: true, maxLength: 100 }\n",
                        "      title: { type: string, required: true, maxLength: 100 }\n      ends: { type: instant, required: true }\n")
                .replace("    label: HEAD\n", "    label: HEAD\n    ttl: ends\n")
                .replace("        label: SIDE\n", "        label: SIDE\n        unique: { colours: { fields: [colours] } }\n");
        assertThatFailure(expiringMember).contains("an aggregate that expires (ttl) cannot declare unique values yet");
    }

    static org.assertj.core.api.AbstractStringAssert<?> assertThatFailure(String yaml) {
        try {
            ModelReader.read("models/league.yaml", yaml);
        } catch (ModelException e) {
            return assertThat(e.getMessage()).startsWith("models/league.yaml:");
        }
        throw new AssertionError("the model was accepted");
    }

    @Test
    void theSentinelKeyFoldsCaseOnlyUnderTheInsensitiveRuleAndKeepsScopesApart() {
        UniqueModel email = email();
        PrimaryKey ada = email.sentinel("Contact", Map.of("email", "Ada@Example.ORG", "workspaceId", "acme")).orElseThrow();
        assertThat(ada).isEqualTo(PrimaryKey.of("UNIQUE#Contact#email#acme#ada@example.org", "UNIQUE"));
        assertThat(email.sentinel("Contact", Map.of("email", "ada@example.org", "workspaceId", "acme"))).contains(ada);
        // the scope is an id: compared exactly, never folded
        assertThat(email.sentinel("Contact", Map.of("email", "ada@example.org", "workspaceId", "Acme")).orElseThrow())
                .isNotEqualTo(ada);
        assertThat(email.sentinel("Contact", Map.of("email", "ada@example.org", "workspaceId", "globex")).orElseThrow().pk())
                .isEqualTo("UNIQUE#Contact#email#globex#ada@example.org");
        // no value, no sentinel (like SQL's NULL); no scope value, a scope of its own that no scope value can name
        assertThat(email.sentinel("Contact", Map.of("workspaceId", "acme"))).isEmpty();
        assertThat(email.sentinel("Contact", Map.of("email", "x@y")).orElseThrow().pk()).isEqualTo("UNIQUE#Contact#email#%-#x@y");
        assertThat(email.sentinel("Contact", Map.of("email", "x@y", "workspaceId", "-")).orElseThrow().pk())
                .isEqualTo("UNIQUE#Contact#email#-#x@y");
        assertThat(email.sentinel("Contact", Map.of("email", "x@y", "workspaceId", "%-")).orElseThrow().pk())
                .isEqualTo("UNIQUE#Contact#email#%25-#x@y");
    }

    @Test
    void theInsensitiveRuleFoldsWhatLowerCasingAloneKeepsApartAndIgnoresInvisibleCharacters() {
        UniqueModel email = email();
        java.util.function.Function<String, String> key = value ->
                email.sentinel("Contact", Map.of("email", value, "workspaceId", "acme")).orElseThrow().pk();
        assertThat(key.apply("ΟΔΟΣ@x.org")).isEqualTo(key.apply("οδοσ@x.org")).isEqualTo(key.apply("οδος@x.org"));
        assertThat(key.apply("STRASSE@x.org")).isEqualTo(key.apply("straße@x.org"));
        assertThat(key.apply("ａｄａ@example.org")).isEqualTo(key.apply("ada@example.org"));   // fullwidth
        assertThat(key.apply("a\u200Bda@example.org")).isEqualTo(key.apply("ada@example.org")); // zero-width space
        assertThat(key.apply("a\u00ADda@example.org")).isEqualTo(key.apply("ada@example.org")); // soft hyphen
        assertThat(key.apply("ada@example.org\u00A0")).isEqualTo(key.apply("ada@example.org")); // no-break space
        assertThat(key.apply("ada@example.org")).isNotEqualTo(key.apply("adb@example.org"));
    }

    @Test
    void compositeValuesNeverShareAKeyAndLongValuesAreHashed() {
        UniqueModel phone = ModelReader.read("models/crm.yaml", MODEL).entity("Contact").unique().get(1);
        var one = phone.sentinel("Contact", Map.of("country", "a#b", "phone", "c")).orElseThrow();
        var two = phone.sentinel("Contact", Map.of("country", "a", "phone", "b#c")).orElseThrow();
        assertThat(one).isNotEqualTo(two);
        // exact: case matters
        assertThat(phone.sentinel("Contact", Map.of("country", "GB", "phone", "1")))
                .isNotEqualTo(phone.sentinel("Contact", Map.of("country", "gb", "phone", "1")));
        var longOne = phone.sentinel("Contact", Map.of("country", "x".repeat(3000), "phone", "1")).orElseThrow();
        assertThat(longOne.pk()).startsWith("UNIQUE#Contact#phone#*#%sha256:").hasSizeLessThan(200);
        // a hash is never the key of a value as given: a value that spells one is escaped
        String spelled = longOne.pk().substring("UNIQUE#Contact#phone#*#".length());
        String[] parts = spelled.split("#", 2);
        assertThat(phone.sentinel("Contact", Map.of("country", parts[0], "phone", "1")).orElseThrow()).isNotEqualTo(longOne);
        assertThat(phone.sentinel("Contact", Map.of("country", spelled, "phone", "")).orElseThrow()).isNotEqualTo(longOne);
    }

    @Test
    void aWriteMovesOnlyTheSentinelsWhoseValueChanged() {
        UniqueModel email = email();
        PrimaryKey owner = PrimaryKey.of("CONTACT#c1", "PROFILE");
        Instant now = Instant.parse("2026-11-27T12:00:00Z");
        Map<String, Object> before = Map.of("email", "ada@example.org", "workspaceId", "acme", "phone", "1");
        assertThat(UniqueSentinels.actions("Contact", List.of(email), owner, before,
                Map.of("email", "ADA@example.org", "workspaceId", "acme", "phone", "2"), now)).isEmpty();
        List<WriteAction> created = UniqueSentinels.actions("Contact", List.of(email), owner, null, before, now);
        assertThat(created).singleElement().satisfies(put -> {
            assertThat(put.kind()).isEqualTo(WriteAction.Kind.PUT);
            assertThat(put.isSentinel()).isTrue();
            assertThat(put.item()).containsKeys("_ownerPk", "_ownerSk", "_type");
            assertThat(put.item().get("_type").s()).isEqualTo("_Unique");
        });
        List<WriteAction> moved = UniqueSentinels.actions("Contact", List.of(email), owner, before,
                Map.of("email", "grace@example.org", "workspaceId", "acme"), now);
        assertThat(moved).extracting(WriteAction::kind).containsExactly(WriteAction.Kind.DELETE, WriteAction.Kind.PUT);
        assertThat(moved.get(0).key().pk()).endsWith("#ada@example.org");
        assertThat(moved.get(1).key().pk()).endsWith("#grace@example.org");
        assertThat(UniqueSentinels.actions("Contact", List.of(email), owner, before, null, now))
                .extracting(WriteAction::kind).containsExactly(WriteAction.Kind.DELETE);
    }

    @Test
    void aTakenValueIsExplainedByItsConstraintAndFieldsNeverByTheOtherItem() {
        UniqueModel email = email();
        WriteAction put = UniqueSentinels.actions("Contact", List.of(email), PrimaryKey.of("CONTACT#c1", "PROFILE"), null,
                Map.of("email", "ada@example.org", "workspaceId", "acme"), Instant.now()).get(0);
        var other = Map.of("pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("UNIQUE#x"),
                "_ownerPk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("CONTACT#secret"));
        var error = put.explainFailure(other);
        assertThat(error).isInstanceOf(dev.cairn.core.CairnError.UniqueViolation.class);
        var violation = (dev.cairn.core.CairnError.UniqueViolation) error;
        assertThat(violation.status()).isEqualTo(409);
        assertThat(violation.constraint()).isEqualTo("email");
        assertThat(violation.fields()).containsExactly("email", "workspaceId");
        assertThat(violation.detail()).doesNotContain("secret").doesNotContain("ada@example.org");
        assertThat(violation.extensions()).containsOnlyKeys("constraint", "fields");
    }
}
