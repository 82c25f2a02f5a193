package shop;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ObjectDataType;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.h2.H2UniqueIndex;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import io.netty.channel.Channel;

/**
 * Launcher for the embedded MongoDB-wire database used by `npm start` and by tests on machines
 * without Docker: mongo-java-server with its H2 MVStore backend.
 *
 * <pre>
 * java -cp 'classes:lib/*' shop.EmbeddedMongo [--port N] [--host ADDR] [--data FILE] [--exit-on-stdin-close]
 * </pre>
 *
 * Prints exactly one line, {@code LISTENING <port>}, on stdout once bound; logs go to stderr.
 */
public final class EmbeddedMongo {

    private EmbeddedMongo() {
    }

    /**
     * The Node driver (mongodb 7) refuses servers below wire version 9, and the library's own
     * {@code ServerVersion} enum stops at 5.0 / wire 8, so the server claims 6.0 / wire 17.
     */
    static final class ReportedVersion implements MongoVersion {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(6, 0, 0);
        }

        @Override
        public int getWireVersion() {
            return 17;
        }
    }

    /**
     * Runs commands that may write one at a time and commits the store before their reply leaves
     * the server.
     * <ul>
     * <li>Commit: MVStore otherwise commits about once a second, so an acknowledged write could be
     * lost on {@code kill -9}.</li>
     * <li>One at a time: mongo-java-server creates a collection on first use without a lock, so two
     * concurrent first writes (mongoose's createIndexes racing the first insert) fail with
     * "already existed in system.namespaces". Writes already queue on the store's commit lock, so
     * this costs little.</li>
     * <li>Reads wait for the write in progress (a shared lock; reads still run side by side): a find
     * on a collection that a first write is creating failed with a NullPointerException, answered
     * as "Unknown error: null" (about 1 in 300 races of insert, createIndex and find on a new
     * collection).</li>
     * </ul>
     * Unknown commands are treated as writes, so a new write command is never missed.
     */
    static final class CommittingH2Backend extends H2Backend {
        private static final Set<String> READ_ONLY_COMMANDS = Set.of(
            "find", "getmore", "killcursors", "count", "distinct", "listcollections", "listindexes",
            "listdatabases", "hello", "ismaster", "buildinfo", "ping", "whatsmyuri", "serverstatus",
            "dbstats", "collstats", "getlog", "getcmdlineopts", "hostinfo", "connectionstatus",
            "getparameter", "getfreemonitoringstatus", "endsessions", "getlasterror", "explain",
            "currentop", "validate");

        private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        private final MVStore store;
        private final boolean persistent;

        CommittingH2Backend(MVStore store) {
            super(store);
            this.store = store;
            this.persistent = store.getFileStore() != null;
        }

        @Override
        protected MongoDatabase openOrCreateDatabase(String databaseName) {
            return new IdLookupH2Database(databaseName, getCursorRegistry());
        }

        /**
         * An H2 database whose collections are {@link IdLookupH2Collection}s. The constructors of the
         * backend and of the database already open the existing databases and collections, before a
         * field of ours could be set: the store is asked of the backend (set first thing).
         */
        final class IdLookupH2Database extends H2Database {
            IdLookupH2Database(String databaseName, CursorRegistry cursorRegistry) {
                super(databaseName, getMvStore(), cursorRegistry);
            }

            @Override
            protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
                // The maps H2Database itself opens (mongo-java-server 1.47), so existing data files read as before.
                String namespace = getFullCollectionNamespace(collectionName);
                MVMap<Object, Document> dataMap = getMvStore().openMap("databases." + namespace);
                MVMap<String, Object> metaMap = getMvStore().openMap("meta." + namespace);
                return new IdLookupH2Collection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
            }

            /**
             * In memory, a unique index orders its keys with {@link IndexKeyType} instead of comparing
             * their Java serializations (a fifth of the database's CPU under the orders benchmark, issue
             * 16). A data file keeps the library's order: its trees were built with it.
             */
            @Override
            protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName,
                List<IndexKey> keys, boolean sparse) {
                if (getMvStore().getFileStore() != null || UNIQUE_INDEX == null) {
                    return super.openOrCreateUniqueIndex(collectionName, indexName, keys, sparse);
                }
                // The map H2Database itself opens (mongo-java-server 1.47), with our key type.
                String mapName = getFullCollectionNamespace(collectionName) + "._index_" + indexName;
                MVMap<KeyValue, Object> map = getMvStore().openMap(mapName,
                    new MVMap.Builder<KeyValue, Object>().keyType(new IndexKeyType()));
                try {
                    return UNIQUE_INDEX.newInstance(map, indexName, keys, sparse);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot create the unique index " + mapName, e);
                }
            }
        }

        @Override
        public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
            if (!mayWrite(command, query)) {
                lock.readLock().lock();
                try {
                    return super.handleCommand(channel, databaseName, command, query);
                } finally {
                    lock.readLock().unlock();
                }
            }
            lock.writeLock().lock();
            try {
                return super.handleCommand(channel, databaseName, command, query);
            } finally {
                try {
                    // Also on failure: an ordered insertMany that hits a duplicate key has already
                    // written the documents before it, and the client is told so.
                    if (persistent && !store.isClosed()) {
                        store.commit();
                    }
                } finally {
                    lock.writeLock().unlock();
                }
            }
        }

        private static boolean mayWrite(String command, Document query) {
            String name = command.toLowerCase(Locale.ROOT);
            if (name.equals("aggregate")) {
                return writesOutput(query.get("pipeline"));
            }
            return !READ_ONLY_COMMANDS.contains(name);
        }

        private static boolean writesOutput(Object pipeline) {
            if (!(pipeline instanceof List<?> stages)) {
                return false;
            }
            for (Object stage : stages) {
                if (stage instanceof Document document
                    && (document.containsKey("$out") || document.containsKey("$merge"))) {
                    return true;
                }
            }
            return false;
        }
    }

    /** H2UniqueIndex's constructor is package-private; null if this library version has none such. */
    static final Constructor<H2UniqueIndex> UNIQUE_INDEX = uniqueIndexConstructor();

    private static Constructor<H2UniqueIndex> uniqueIndexConstructor() {
        try {
            Constructor<H2UniqueIndex> constructor =
                H2UniqueIndex.class.getDeclaredConstructor(MVMap.class, String.class, List.class, boolean.class);
            constructor.setAccessible(true);
            return constructor;
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("unique indexes keep the library's key order: " + e);
            return null;
        }
    }

    /**
     * A total order of unique-index keys that compares object ids and strings directly. H2 compares
     * keys of a class that is not {@link Comparable} (as {@link KeyValue}) by serializing both, at
     * every step of every lookup. Keys compare by length, then value by value: null first, then object
     * ids, then strings, then anything else in H2's own order. Ids and strings are equal exactly when
     * their serializations were, so uniqueness is unchanged for them (every unique index of the shop).
     */
    static final class IndexKeyType extends ObjectDataType {
        @Override
        public int compare(Object a, Object b) {
            if (!(a instanceof KeyValue x) || !(b instanceof KeyValue y)) {
                return super.compare(a, b);
            }
            int sizes = Integer.compare(x.size(), y.size());
            if (sizes != 0) {
                return sizes;
            }
            for (int i = 0; i < x.size(); i++) {
                int values = compareValues(x.get(i), y.get(i));
                if (values != 0) {
                    return values;
                }
            }
            return 0;
        }

        private int compareValues(Object a, Object b) {
            int ranks = Integer.compare(rank(a), rank(b));
            if (ranks != 0 || a == null) {
                return ranks;
            }
            if (a instanceof ObjectId id) {
                return id.compareTo((ObjectId) b);
            }
            if (a instanceof String text) {
                return text.compareTo((String) b);
            }
            return super.compare(a, b);
        }

        private static int rank(Object value) {
            if (value == null) {
                return 0;
            }
            if (value instanceof ObjectId) {
                return 1;
            }
            return value instanceof String ? 2 : 3;
        }
    }

    /**
     * Finds documents by {@code _id} through the {@code _id} index when the query also has other
     * conditions. The library uses an index only for a query on exactly its keys, so a conditional
     * update such as {@code {_id: X, state: 'pending'}} (how the services write without transactions)
     * read and matched every document of the collection: the cost of an order grew with the number of
     * orders (docs/performance.md). The documents the index finds are still matched against the whole query.
     */
    static final class IdLookupH2Collection extends H2Collection {
        IdLookupH2Collection(MongoDatabase database, String collectionName, CollectionOptions options,
            MVMap<Object, Document> dataMap, MVMap<String, Object> metaMap, CursorRegistry cursorRegistry) {
            super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
        }

        @Override
        protected QueryResult queryDocuments(Document query, Document orderBy, int numberToSkip, int limit,
            int batchSize, Document fieldSelector) {
            if (query.size() > 1 && query.containsKey("_id")) {
                Document byId = new Document("_id", query.get("_id"));
                for (Index<Object> index : getIndexes()) {
                    if (index.canHandle(byId)) {
                        return matchDocuments(query, index.getPositions(byId), orderBy, numberToSkip, limit, batchSize,
                            fieldSelector);
                    }
                }
            }
            return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
        }
    }

    record Options(String host, int port, String dataFile, boolean exitOnStdinClose) {
        static Options parse(String[] args) {
            String host = "127.0.0.1";
            int port = 27018;
            String dataFile = null;
            boolean exitOnStdinClose = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--host" -> host = value(args, ++i, "--host");
                    case "--port" -> port = parsePort(value(args, ++i, "--port"));
                    case "--data" -> dataFile = value(args, ++i, "--data");
                    case "--exit-on-stdin-close" -> exitOnStdinClose = true;
                    case "--help", "-h" -> throw new IllegalArgumentException(usage());
                    default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + usage());
                }
            }
            return new Options(host, port, dataFile, exitOnStdinClose);
        }

        private static String value(String[] args, int index, String option) {
            if (index >= args.length) {
                throw new IllegalArgumentException(option + " needs a value\n" + usage());
            }
            return args[index];
        }

        private static int parsePort(String text) {
            try {
                int port = Integer.parseInt(text);
                if (port < 0 || port > 65535) {
                    throw new NumberFormatException();
                }
                return port;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--port must be 0..65535, got " + text);
            }
        }

        static String usage() {
            return "usage: shop.EmbeddedMongo [--port N (0 = any free port, default 27018)] "
                + "[--host ADDR (default 127.0.0.1)] [--data FILE (H2 MVStore file; default in-memory)] "
                + "[--exit-on-stdin-close]";
        }
    }

    public static void main(String[] args) throws Exception {
        // Must be set before the first logger is created, i.e. before any server class loads.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }

        MVStore store = openStore(options.dataFile());
        CommittingH2Backend backend = new CommittingH2Backend(store);
        backend.version(new ReportedVersion());
        MongoServer server = new MongoServer(backend);

        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean();
        Runnable shutdown = () -> {
            if (!stopping.compareAndSet(false, true)) {
                return;
            }
            try {
                server.shutdownNow();
            } catch (RuntimeException e) {
                System.err.println("error while stopping the server: " + e);
            } finally {
                if (!store.isClosed()) {
                    store.commit();
                    store.close();
                }
                stopped.countDown();
            }
        };
        // Runs on SIGTERM/SIGINT; closing the store writes its final state.
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "embedded-mongo-shutdown"));

        InetSocketAddress address;
        try {
            server.bind(options.host(), options.port());
            address = server.getLocalAddress();
        } catch (Exception e) {
            // Netty rethrows the checked BindException undeclared, hence Exception. Exiting explicitly
            // matters: the server's non-daemon event loop would otherwise keep the JVM alive.
            System.err.println("cannot listen on " + options.host() + ":" + options.port() + ": " + e);
            System.exit(1);
            return;
        }

        PrintStream out = System.out;
        out.println("LISTENING " + address.getPort());
        out.flush();

        if (options.exitOnStdinClose()) {
            watchStdin();
        }
        stopped.await();
    }

    private static MVStore openStore(String dataFile) {
        if (dataFile == null) {
            return new MVStore.Builder().open();
        }
        File file = new File(dataFile).getAbsoluteFile();
        File parent = file.getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            System.err.println("cannot create directory " + parent);
            System.exit(1);
        }
        // Without auto-commit there is no background writer: every commit is written synchronously by
        // the command that asked for it, so "commit returned" means "on disk".
        return new MVStore.Builder().fileName(file.getPath()).autoCommitDisabled().open();
    }

    /** Lets a parent that dies without signalling (e.g. SIGKILL) still take the server down with it. */
    private static void watchStdin() {
        Thread watcher = new Thread(() -> {
            byte[] buffer = new byte[256];
            try (InputStream in = System.in) {
                while (in.read(buffer) >= 0) {
                    // Input is ignored; only end-of-stream matters.
                }
            } catch (IOException ignored) {
                // A broken pipe means the parent is gone, same as end-of-stream.
            }
            System.exit(0);
        }, "embedded-mongo-stdin-watch");
        watcher.setDaemon(true);
        watcher.start();
    }
}
