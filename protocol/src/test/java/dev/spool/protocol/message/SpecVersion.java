package dev.spool.protocol.message;

import dev.spool.generator.MessageSpec;
import dev.spool.generator.SpecParser;
import dev.spool.protocol.types.ByteBufferWriter;
import dev.spool.protocol.types.Message;
import dev.spool.protocol.types.ProtocolReader;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One version of one message spec, with the two codecs that read and write it: Spool's generated
 * class and Kafka's own. Immutable; thread-safe.
 *
 * <p>The specs are the ones the generator reads: Kafka's JSON files inside the kafka-clients and
 * kafka-metadata jars on the test class path.
 */
record SpecVersion(MessageSpec spec, short version, Constructor<? extends Message> ours,
                   Constructor<? extends org.apache.kafka.common.protocol.Message> kafka) {

    /**
     * Where one family of specs lives: a folder of JSON files inside a Kafka jar, and the packages of
     * the classes generated from them, Spool's and Kafka's.
     */
    private record SpecSource(String folder, String ourPackage, String kafkaPackage) {
    }

    private static final List<SpecSource> SOURCES = List.of(
            // kafka-clients: requests, responses, headers and data.
            new SpecSource("common/message", "dev.spool.protocol.message.", "org.apache.kafka.common.message."),
            // kafka-metadata: the records of the __cluster_metadata log.
            new SpecSource("common/metadata", "dev.spool.protocol.metadata.", "org.apache.kafka.common.metadata."));

    /** Every valid version of every request, response, header, data and metadata record spec. */
    static final List<SpecVersion> ALL = Collections.unmodifiableList(loadAll());

    @Override
    public String toString() {
        return spec.name() + " v" + version;
    }

    Message newOurs() {
        return construct(ours);
    }

    /** Reads with Spool's class, which must consume every byte. */
    Message parseOurs(byte[] bytes) {
        return parseOurs(ByteBuffer.wrap(bytes));
    }

    /** Reads with Spool's class from the buffer's position to its limit, which it must reach. */
    Message parseOurs(ByteBuffer bytes) {
        Message message = newOurs();
        ProtocolReader reader = new ProtocolReader(bytes);
        message.read(reader, version);
        if (reader.remaining() != 0) {
            throw new AssertionError(this + ": Spool's reader left " + reader.remaining() + " bytes unread");
        }
        return message;
    }

    byte[] writeOurs(Message message) {
        return ByteBufferWriter.serialize(message, version).array();
    }

    /** Reads with kafka-clients' class, which must consume every byte. */
    org.apache.kafka.common.protocol.Message parseKafka(byte[] bytes) {
        ByteBufferAccessor accessor = new ByteBufferAccessor(ByteBuffer.wrap(bytes));
        org.apache.kafka.common.protocol.Message message = construct(kafka, accessor, version);
        if (accessor.remaining() != 0) {
            throw new AssertionError(this + ": Kafka's reader left " + accessor.remaining() + " of " + bytes.length
                    + " bytes unread");
        }
        return message;
    }

    byte[] writeKafka(org.apache.kafka.common.protocol.Message message) {
        ByteBuffer buffer = MessageUtil.toByteBufferAccessor(message, version).buffer();
        return Arrays.copyOfRange(buffer.array(), buffer.position(), buffer.limit());
    }

    private static <T> T construct(Constructor<T> constructor, Object... arguments) {
        try {
            return constructor.newInstance(arguments);
        } catch (InvocationTargetException e) {
            // The codec's own exception is the one the test wants to see.
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new AssertionError(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static List<SpecVersion> loadAll() {
        List<SpecVersion> all = new ArrayList<>();
        for (SpecSource source : SOURCES) {
            for (MessageSpec spec : loadSpecs(source.folder())) {
                // Specs of removed APIs keep their file with validVersions "none"; Kafka generates no class for them.
                if (spec.validVersions().isEmpty()) {
                    continue;
                }
                Constructor<? extends Message> ours = constructor(source.ourPackage() + spec.className(), Message.class);
                Constructor<? extends org.apache.kafka.common.protocol.Message> kafka = constructor(
                        source.kafkaPackage() + kafkaClassName(spec), org.apache.kafka.common.protocol.Message.class,
                        org.apache.kafka.common.protocol.Readable.class, short.class);
                for (int v = spec.validVersions().lowest(); v <= spec.validVersions().highest(); v++) {
                    all.add(new SpecVersion(spec, (short) v, ours, kafka));
                }
            }
        }
        return all;
    }

    /** Kafka suffixes "Data" to request, response and header classes only (its MessageSpec.dataClassName). */
    private static String kafkaClassName(MessageSpec spec) {
        return switch (spec.type()) {
            case "request", "response", "header" -> spec.name() + "Data";
            default -> spec.name();
        };
    }

    private static <T> Constructor<? extends T> constructor(String className, Class<T> type, Class<?>... parameters) {
        try {
            return Class.forName(className).asSubclass(type).getConstructor(parameters);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no codec class " + className, e);
        }
    }

    private static List<MessageSpec> loadSpecs(String folder) {
        URL jarFolder = SpecVersion.class.getClassLoader().getResource(folder);
        if (jarFolder == null) {
            throw new AssertionError("no message specs in " + folder + " on the test class path");
        }
        try (FileSystem jar = FileSystems.newFileSystem(jarOf(jarFolder), Map.of());
             Stream<Path> files = Files.list(jar.getPath(folder))) {
            List<MessageSpec> specs = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    specs.add(SpecParser.parse(in, file.toString()));
                }
            }
            return specs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static URI jarOf(URL resource) {
        try {
            URI uri = resource.toURI();
            if (!uri.getScheme().equals("jar")) {
                throw new AssertionError("expected the message specs inside a jar, found " + uri);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }
}
