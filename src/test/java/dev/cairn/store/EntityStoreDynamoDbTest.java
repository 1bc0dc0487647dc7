package dev.cairn.store;

import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.entity.ItemCollection;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.expr.Update;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every store operation against the real DynamoDB Local engine. */
@QuarkusTest
class EntityStoreDynamoDbTest {

    record Shelf(String id, String name) {
    }

    record Book(String shelfId, String id, String title, String genre) {
    }

    record Label(String shelfId, String text) {
    }

    static final KeyTemplate SHELF = KeyTemplate.of("SHELF#{id}");
    static final KeyTemplate BOOK = KeyTemplate.of("BOOK#{id}");
    static final KeyTemplate LABEL = KeyTemplate.of("LABEL#{text}");
    static final KeyTemplate GENRE = KeyTemplate.of("GENRE#{genre}");

    static final EntitySpec<Shelf> SHELF_SPEC = EntitySpec.builder("Shelf", RecordCodec.<Shelf>builder()
                    .string("id", Shelf::id).string("name", Shelf::name)
                    .build(f -> new Shelf(f.string("id"), f.string("name"))))
            .key(s -> PrimaryKey.of(SHELF.render(s.id()), "META")).build();

    static final EntitySpec<Book> BOOK_SPEC = EntitySpec.builder("Book", RecordCodec.<Book>builder()
                    .string("shelfId", Book::shelfId).string("id", Book::id).string("title", Book::title)
                    .string("genre", Book::genre)
                    .build(f -> new Book(f.string("shelfId"), f.string("id"), f.string("title"), f.string("genre"))))
            .key(b -> PrimaryKey.of(SHELF.render(b.shelfId()), BOOK.render(b.id())))
            .index(Index.GSI1, b -> b.genre() == null ? null : IndexKey.of(GENRE.render(b.genre()), SHELF.render(b.shelfId()) + "#" + BOOK.render(b.id())))
            .build();

    static final EntitySpec<Label> LABEL_SPEC = EntitySpec.builder("Label", RecordCodec.<Label>builder()
                    .string("shelfId", Label::shelfId).string("text", Label::text)
                    .build(f -> new Label(f.string("shelfId"), f.string("text"))))
            .key(l -> PrimaryKey.of(SHELF.render(l.shelfId()), LABEL.render(l.text()))).build();

    @Inject
    EntityStore store;

    static String unique() {
        return UUID.randomUUID().toString();
    }

    static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(30));
    }

    static void assertError(Uni<?> uni, String code) {
        assertThatThrownBy(() -> await(uni)).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error().code()).isEqualTo(code));
    }

    @Test
    void createThenGetThenCreateAgainIsAConflict() {
        var shelf = new Shelf(unique(), "Fiction");
        Stored<Shelf> created = await(store.create(SHELF_SPEC, shelf));
        assertThat(created.version()).isEqualTo(1);
        Stored<Shelf> read = await(store.get(SHELF_SPEC, SHELF_SPEC.keyOf(shelf), true));
        assertThat(read.value()).isEqualTo(shelf);
        assertThat(read.version()).isEqualTo(1);
        assertError(store.create(SHELF_SPEC, new Shelf(shelf.id(), "Overwrite?")), "Conflict");
        assertThat(await(store.get(SHELF_SPEC, SHELF_SPEC.keyOf(shelf), true)).value().name()).isEqualTo("Fiction");
    }

    @Test
    void getOfAMissingItemIsNull() {
        assertThat(await(store.get(SHELF_SPEC, PrimaryKey.of(SHELF.render(unique()), "META"), true))).isNull();
    }

    @Test
    void idsDifferingOnlyInCaseOrByDelimitersAreDistinctItems() {
        String base = unique();
        await(store.create(SHELF_SPEC, new Shelf("A" + base, "upper")));
        await(store.create(SHELF_SPEC, new Shelf("a" + base, "lower")));
        await(store.create(SHELF_SPEC, new Shelf(base + "#META", "delimited")));
        assertThat(await(store.get(SHELF_SPEC, PrimaryKey.of(SHELF.render("A" + base), "META"), true)).value().name()).isEqualTo("upper");
        assertThat(await(store.get(SHELF_SPEC, PrimaryKey.of(SHELF.render("a" + base), "META"), true)).value().name()).isEqualTo("lower");
        assertThat(await(store.get(SHELF_SPEC, PrimaryKey.of(SHELF.render(base), "META"), true))).isNull();
    }

    @Test
    void updateOfAMissingItemIsNotFoundAndCreatesNothing() {
        var key = PrimaryKey.of(SHELF.render(unique()), "META");
        assertError(store.update(SHELF_SPEC, key, Update.create().set("name", AttributeValue.fromS("x")), null), "NotFound");
        assertThat(await(store.get(SHELF_SPEC, key, true))).isNull();
    }

    @Test
    void updateBumpsTheVersionAndAStaleVersionIsAVersionConflict() {
        var shelf = new Shelf(unique(), "Old");
        await(store.create(SHELF_SPEC, shelf));
        var key = SHELF_SPEC.keyOf(shelf);
        Stored<Shelf> updated = await(store.update(SHELF_SPEC, key, Update.create().set("name", AttributeValue.fromS("New")), 1L));
        assertThat(updated.version()).isEqualTo(2);
        assertThat(updated.value().name()).isEqualTo("New");
        assertThat(updated.updatedAt()).isAfterOrEqualTo(updated.createdAt());
        assertThatThrownBy(() -> await(store.update(SHELF_SPEC, key, Update.create().set("name", AttributeValue.fromS("Lost")), 1L)))
                .isInstanceOfSatisfying(CairnException.class, e -> {
                    assertThat(e.error().code()).isEqualTo("VersionConflict");
                    assertThat(e.error().extensions()).containsEntry("expectedVersion", 1L).containsEntry("actualVersion", 2L);
                });
        assertThat(await(store.get(SHELF_SPEC, key, true)).value().name()).isEqualTo("New");
    }

    @Test
    void putUpsertsThenReplacesOnlyAtTheExpectedVersionAndRemovesDroppedFields() {
        var book = new Book(unique(), "b1", "Dune", "scifi");
        Stored<Book> first = await(store.put(BOOK_SPEC, book, null));
        assertThat(first.version()).isEqualTo(1);
        Stored<Book> second = await(store.put(BOOK_SPEC, new Book(book.shelfId(), "b1", "Dune Messiah", null), 1L));
        assertThat(second.version()).isEqualTo(2);
        assertThat(second.value().genre()).isNull();
        assertThat(second.createdAt()).isEqualTo(first.createdAt());
        assertError(store.put(BOOK_SPEC, book, 1L), "VersionConflict");
        assertError(store.put(BOOK_SPEC, new Book(unique(), "b1", "x", null), 1L), "NotFound");
        // The dropped genre left the sparse index too.
        List<Map<String, AttributeValue>> byGenre = await(store.queryAll(QuerySpec.on(Index.GSI1, GENRE.render("scifi"))
                .sort(SortCondition.beginsWith(SHELF.prefix() + KeyTemplateEscape.of(book.shelfId()))).build()));
        assertThat(byGenre).isEmpty();
    }

    @Test
    void deleteHonoursExistenceAndVersion() {
        var shelf = new Shelf(unique(), "Temp");
        await(store.create(SHELF_SPEC, shelf));
        var key = SHELF_SPEC.keyOf(shelf);
        assertError(store.delete(SHELF_SPEC, key, true, 7L), "VersionConflict");
        assertThat(await(store.get(SHELF_SPEC, key, true))).isNotNull();
        assertThat(await(store.delete(SHELF_SPEC, key, true, 1L))).isTrue();
        assertError(store.delete(SHELF_SPEC, key, true, null), "NotFound");
        assertThat(await(store.delete(SHELF_SPEC, key, false, null))).isFalse();
    }

    @Test
    void paginationWalksThreePagesNewestFirstAndRejectsTamperedOrReplayedCursors() {
        String shelfId = unique();
        for (int i = 0; i < 7; i++) {
            await(store.create(BOOK_SPEC, new Book(shelfId, String.format("%02d", i), "t" + i, null)));
        }
        QuerySpec query = QuerySpec.table(SHELF.render(shelfId)).sort(SortCondition.beginsWith(BOOK.prefix()))
                .descending().limit(3).consistent().build();
        List<String> ids = new ArrayList<>();
        Page<Stored<Book>> page = await(store.page(BOOK_SPEC, query, null));
        int pages = 1;
        page.items().forEach(b -> ids.add(b.value().id()));
        String firstCursor = page.next();
        while (page.next() != null) {
            page = await(store.page(BOOK_SPEC, query, page.next()));
            page.items().forEach(b -> ids.add(b.value().id()));
            pages++;
        }
        assertThat(ids).containsExactly("06", "05", "04", "03", "02", "01", "00");
        assertThat(pages).isEqualTo(3);

        byte[] raw = Base64.getUrlDecoder().decode(firstCursor);
        raw[3] ^= 0x20;
        assertError(store.page(BOOK_SPEC, query, Base64.getUrlEncoder().withoutPadding().encodeToString(raw)), "InvalidCursor");
        QuerySpec otherShelf = QuerySpec.table(SHELF.render(unique())).sort(SortCondition.beginsWith(BOOK.prefix()))
                .descending().limit(3).consistent().build();
        assertError(store.page(BOOK_SPEC, otherShelf, firstCursor), "InvalidCursor");
    }

    @Test
    void queryAllReadsEveryPageAndFiltersAndProjects() {
        String shelfId = unique();
        for (int i = 0; i < 5; i++) {
            await(store.create(BOOK_SPEC, new Book(shelfId, "b" + i, "t" + i, i % 2 == 0 ? "even" : "odd")));
        }
        QuerySpec all = QuerySpec.table(SHELF.render(shelfId)).limit(2).consistent().build();
        assertThat(await(store.queryAll(all))).hasSize(5);
        QuerySpec evenTitles = QuerySpec.table(SHELF.render(shelfId)).consistent()
                .filter(Condition.eq("genre", AttributeValue.fromS("even"))).project("title").build();
        List<Map<String, AttributeValue>> even = await(store.queryAll(evenTitles));
        assertThat(even).extracting(m -> m.get("title").s()).containsExactly("t0", "t2", "t4");
        assertThat(even).allSatisfy(m -> assertThat(m).containsOnlyKeys("title"));
    }

    @Test
    void gsiQueryFindsItemsByTheirIndexKey() {
        String shelfId = unique();
        String genre = "g-" + unique();
        await(store.create(BOOK_SPEC, new Book(shelfId, "x", "X", genre)));
        await(store.create(BOOK_SPEC, new Book(shelfId, "y", "Y", genre)));
        QuerySpec byGenre = QuerySpec.on(Index.GSI1, GENRE.render(genre)).build();
        assertThat(await(store.page(BOOK_SPEC, byGenre, null)).items()).extracting(s -> s.value().id()).containsExactly("x", "y");
    }

    @Test
    void collectionQueryDecodesThreeEntityTypesFromOnePartition() {
        String shelfId = unique();
        await(store.create(SHELF_SPEC, new Shelf(shelfId, "Mixed")));
        await(store.create(BOOK_SPEC, new Book(shelfId, "b1", "One", null)));
        await(store.create(BOOK_SPEC, new Book(shelfId, "b2", "Two", null)));
        await(store.create(LABEL_SPEC, new Label(shelfId, "new")));
        ItemCollection collection = await(store.collection(QuerySpec.table(SHELF.render(shelfId)).consistent().build(),
                List.of(SHELF_SPEC, BOOK_SPEC, LABEL_SPEC)));
        assertThat(collection.single(SHELF_SPEC).value().name()).isEqualTo("Mixed");
        assertThat(collection.all(BOOK_SPEC)).extracting(s -> s.value().title()).containsExactly("One", "Two");
        assertThat(collection.all(LABEL_SPEC)).extracting(s -> s.value().text()).containsExactly("new");
        assertThat(collection.unknown()).isEmpty();

        ItemCollection partial = await(store.collection(QuerySpec.table(SHELF.render(shelfId)).consistent().build(),
                List.of(SHELF_SPEC, BOOK_SPEC)));
        assertThat(partial.unknown()).extracting(ItemCollection.UnknownItem::type).containsExactly("Label");
    }

    @Test
    void batchGetOf250KeysReturnsEveryItemInRequestOrderWithNullsForMissing() {
        String shelfId = unique();
        List<Map<String, AttributeValue>> items = IntStream.range(0, 250)
                .mapToObj(i -> BOOK_SPEC.toItem(new Book(shelfId, "b" + i, "t" + i, null), 1,
                        java.time.Instant.now(), java.time.Instant.now())).toList();
        await(store.batchPut(items));
        List<PrimaryKey> keys = new ArrayList<>();
        for (int i = 249; i >= 0; i--) {
            keys.add(PrimaryKey.of(SHELF.render(shelfId), BOOK.render("b" + i)));
        }
        keys.add(PrimaryKey.of(SHELF.render(shelfId), BOOK.render("missing")));
        keys.add(PrimaryKey.of(SHELF.render(shelfId), BOOK.render("b7")));
        List<Map<String, AttributeValue>> found = await(store.batchGet(keys, true));
        assertThat(found).hasSize(252);
        for (int i = 0; i < 250; i++) {
            assertThat(found.get(i).get("title").s()).isEqualTo("t" + (249 - i));
        }
        assertThat(found.get(250)).isNull();
        assertThat(found.get(251).get("title").s()).isEqualTo("t7");

        await(store.batchDelete(keys.subList(0, 250)));
        assertThat(await(store.batchGet(keys.subList(0, 250), true))).containsOnlyNulls();
    }

    @Test
    void transactionWritesAllOrNothingAndNamesTheFailedAction() {
        String shelfId = unique();
        await(store.create(SHELF_SPEC, new Shelf(shelfId, "Tx")));
        var now = store.now();
        var failing = TransactionPlan.of(List.of(
                WriteAction.create(BOOK_SPEC, new Book(shelfId, "t1", "T1", null), now),
                WriteAction.check("Shelf", PrimaryKey.of(SHELF.render(shelfId), "META"), Expectation.present(5L))));
        assertThatThrownBy(() -> await(store.transact(failing))).isInstanceOfSatisfying(CairnException.class, e -> {
            assertThat(e.error().code()).isEqualTo("VersionConflict");
            assertThat(e.error().extensions()).containsEntry("actualVersion", 1L);
        });
        assertThat(await(store.get(BOOK_SPEC, PrimaryKey.of(SHELF.render(shelfId), BOOK.render("t1")), true))).isNull();

        var passing = TransactionPlan.of(List.of(
                WriteAction.create(BOOK_SPEC, new Book(shelfId, "t1", "T1", null), now),
                WriteAction.check("Shelf", PrimaryKey.of(SHELF.render(shelfId), "META"), Expectation.present(1L))));
        await(store.transact(passing));
        assertThat(await(store.get(BOOK_SPEC, PrimaryKey.of(SHELF.render(shelfId), BOOK.render("t1")), true))).isNotNull();

        var twoFailures = TransactionPlan.of(List.of(
                WriteAction.create(BOOK_SPEC, new Book(shelfId, "t1", "again", null), now),
                WriteAction.check("Shelf", PrimaryKey.of(SHELF.render(shelfId), "META"), Expectation.present(9L))));
        assertThatThrownBy(() -> await(store.transact(twoFailures))).isInstanceOfSatisfying(CairnException.class, e -> {
            assertThat(e.error().code()).isEqualTo("TransactionCanceled");
            assertThat(e.error().extensions().get("failures").toString()).contains("index=0").contains("index=1");
        });
    }

    @Test
    void aTransactionOf101ActionsIsRejectedWithNothingWritten() {
        String shelfId = unique();
        var now = store.now();
        assertThatThrownBy(() -> TransactionPlan.of(IntStream.range(0, 101)
                .mapToObj(i -> WriteAction.create(BOOK_SPEC, new Book(shelfId, "b" + i, "t", null), now)).toList()))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error().code()).isEqualTo("TransactionTooLarge"));
        assertThat(await(store.queryAll(QuerySpec.table(SHELF.render(shelfId)).consistent().build()))).isEmpty();
        // and a full 100 goes through in one call
        await(store.transact(TransactionPlan.of(IntStream.range(0, 100)
                .mapToObj(i -> WriteAction.create(BOOK_SPEC, new Book(shelfId, "b" + i, "t", null), now)).toList())));
        assertThat(await(store.queryAll(QuerySpec.table(SHELF.render(shelfId)).consistent().build()))).hasSize(100);
    }

    /** The escaped form of a value inside a key (what a prefix built by hand must use). */
    static final class KeyTemplateEscape {
        static String of(String value) {
            return dev.cairn.core.key.KeyCodec.escape(value);
        }
    }
}
