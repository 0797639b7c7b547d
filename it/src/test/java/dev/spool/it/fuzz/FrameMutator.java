package dev.spool.it.fuzz;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Makes fuzz inputs from seed requests: byte flips, interesting integers (negative and huge array and
 * string lengths), overlong varints, invalid UTF-8, truncation and garbage, unknown API keys and
 * versions, frames whose size prefix lies, fully random frames, and record batches with a bad CRC, a
 * wrong magic, wrong counts or lengths, or garbage where the (compressed) records are, with the CRC
 * recomputed so that the broker has to look inside; and decompression bombs ({@link #bomb}). Not thread-safe: one per fuzzing thread.
 */
public final class FrameMutator {

    /** What to send: a whole frame (size prefix included). */
    public record Input(Kind kind, byte[] frame, ApiKeys seedApi) {
        /** Raw inputs break the framing: no probe can follow them on the connection. */
        public boolean raw() {
            return kind == Kind.WRONG_SIZE || kind == Kind.RANDOM_STREAM;
        }
    }

    /** The families of inputs, counted separately in the report. */
    public enum Kind {
        MUTATED, UNKNOWN_API_KEY, UNKNOWN_VERSION, BATCH_BAD_CRC, BATCH_FIELDS, BATCH_GARBAGE_RECORDS, BATCH_BOMB,
        RANDOM_FRAME, WRONG_SIZE, RANDOM_STREAM
    }

    private static final int BATCH_MAGIC = 16;
    private static final int BATCH_CRC = 17;
    private static final int BATCH_ATTRIBUTES = 21;
    private static final int BATCH_LAST_OFFSET_DELTA = 23;
    private static final int BATCH_RECORD_COUNT = 57;
    private static final int BATCH_RECORDS = 61;
    private static final int[] BATCH_FIELDS_AT = {8, 12, 16, 21, 23, 27, 35, 43, 51, 53, 57};
    private static final long[] INTERESTING = {-1, -2, 0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF,
        0x80000000L, 0xFFFFFFFFL, 0x10000, 1 << 24};
    private static final byte[][] BAD_UTF8 = {{(byte) 0xC3, 0x28}, {(byte) 0xFF, (byte) 0xFE},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}};

    private final Random random;
    private final List<FuzzSeeds.Seed> seeds;
    private final List<FuzzSeeds.Seed> produceSeeds;

    public FrameMutator(Random random, List<FuzzSeeds.Seed> seeds) {
        this.random = random;
        this.seeds = seeds;
        this.produceSeeds = seeds.stream().filter(FuzzSeeds.Seed::hasBatch).toList();
    }

    public Input next() {
        int dice = random.nextInt(100);
        if (dice < 45) {
            FuzzSeeds.Seed seed = pick(seeds);
            return new Input(Kind.MUTATED, frame(mutate(seed.body())), seed.api());
        }
        if (dice < 48) {
            return headerInput(Kind.UNKNOWN_API_KEY);
        }
        if (dice < 52) {
            return headerInput(Kind.UNKNOWN_VERSION);
        }
        if (dice < 82 && !produceSeeds.isEmpty()) {
            return batchInput(pick(produceSeeds));
        }
        if (dice < 90) {
            byte[] body = new byte[random.nextInt(64)];
            random.nextBytes(body);
            return new Input(Kind.RANDOM_FRAME, frame(body), null);
        }
        if (dice < 96) {
            FuzzSeeds.Seed seed = pick(seeds);
            byte[] body = random.nextBoolean() ? seed.body() : mutate(seed.body());
            return new Input(Kind.WRONG_SIZE, wrongSize(body), seed.api());
        }
        byte[] stream = new byte[1 + random.nextInt(256)];
        random.nextBytes(stream);
        return new Input(Kind.RANDOM_STREAM, stream, null);
    }

    private FuzzSeeds.Seed pick(List<FuzzSeeds.Seed> from) {
        return from.get(random.nextInt(from.size()));
    }

    private Input headerInput(Kind kind) {
        FuzzSeeds.Seed seed = pick(seeds);
        byte[] body = seed.body().clone();
        ByteBuffer header = ByteBuffer.wrap(body);
        if (kind == Kind.UNKNOWN_API_KEY) {
            short key;
            do {
                key = (short) (random.nextBoolean() ? 70 + random.nextInt(1000) : random.nextInt(1 << 16));
            } while (ApiKeys.hasId(key));
            header.putShort(0, key);
        } else {
            short version = switch (random.nextInt(3)) {
                case 0 -> (short) (seed.api().latestVersion() + 1 + random.nextInt(5));
                case 1 -> (short) -(1 + random.nextInt(Short.MAX_VALUE));
                default -> (short) random.nextInt(1 << 16);
            };
            header.putShort(2, version);
        }
        return new Input(kind, frame(random.nextInt(4) == 0 ? mutate(body) : body), seed.api());
    }

    private Input batchInput(FuzzSeeds.Seed seed) {
        byte[] body = seed.body().clone();
        int start = seed.batchOffset();
        int length = seed.batchLength();
        int choice = random.nextInt(3);
        Kind kind;
        if (choice == 0) {
            kind = Kind.BATCH_BAD_CRC;
            int at = start + BATCH_ATTRIBUTES + random.nextInt(length - BATCH_ATTRIBUTES);
            body[at] ^= (byte) (1 + random.nextInt(255));
        } else if (choice == 1) {
            kind = Kind.BATCH_FIELDS;
            int field = BATCH_FIELDS_AT[random.nextInt(BATCH_FIELDS_AT.length)];
            ByteBuffer batch = ByteBuffer.wrap(body, start, length).slice();
            switch (field) {
                case BATCH_MAGIC -> batch.put(field, (byte) (random.nextBoolean() ? random.nextInt(4) : random.nextInt(256)));
                case 51 -> batch.putShort(field, (short) INTERESTING[random.nextInt(INTERESTING.length)]);
                case 27, 35, 43 -> batch.putLong(field, random.nextBoolean() ? random.nextLong()
                        : INTERESTING[random.nextInt(INTERESTING.length)]);
                case 21 -> batch.putShort(field, (short) (random.nextBoolean() ? random.nextInt(8) : random.nextInt(1 << 16)));
                default -> batch.putInt(field, random.nextBoolean() ? batch.getInt(field) + random.nextInt(7) - 3
                        : (int) INTERESTING[random.nextInt(INTERESTING.length)]);
            }
            if (random.nextInt(5) != 0) {
                fixCrc(body, start, length);
            }
        } else {
            kind = Kind.BATCH_GARBAGE_RECORDS;
            int from = start + BATCH_RECORDS + random.nextInt(length - BATCH_RECORDS);
            int count = 1 + random.nextInt(Math.min(16, start + length - from));
            for (int i = 0; i < count; i++) {
                body[from + i] = random.nextInt(3) == 0 ? (byte) 0xFF : (byte) random.nextInt(256);
            }
            fixCrc(body, start, length);
        }
        return new Input(kind, frame(body), seed.api());
    }

    /**
     * A decompression bomb ({@link FuzzSeeds#bombs()}) as it is or with a record count that lies, higher or
     * lower (last offset delta and CRC made to agree, so the broker has to inflate to find out). Depends
     * only on {@code variant}, not on this mutator's random sequence, so adding bombs to a run leaves the
     * other inputs of a seed as they were.
     */
    public static Input bomb(FuzzSeeds.Seed seed, int variant) {
        byte[] body = seed.body().clone();
        int start = seed.batchOffset();
        ByteBuffer batch = ByteBuffer.wrap(body, start, seed.batchLength()).slice();
        int count = batch.getInt(BATCH_RECORD_COUNT);
        boolean snappy = (batch.getShort(BATCH_ATTRIBUTES) & 0x07) == 2;
        int lie = switch (variant % 3) {
            case 0 -> snappy ? count + 1 : count; // an honest snappy bomb is small enough to be accepted
            case 1 -> count + 1;
            default -> 1;
        };
        batch.putInt(BATCH_RECORD_COUNT, lie);
        batch.putInt(BATCH_LAST_OFFSET_DELTA, lie - 1);
        fixCrc(body, start, seed.batchLength());
        return new Input(Kind.BATCH_BOMB, frame(body), seed.api());
    }

    private static void fixCrc(byte[] body, int start, int length) {
        CRC32C crc = new CRC32C();
        crc.update(body, start + BATCH_ATTRIBUTES, length - BATCH_ATTRIBUTES);
        ByteBuffer.wrap(body).putInt(start + BATCH_CRC, (int) crc.getValue());
    }

    /** One to eight mutations of a copy of {@code body}. */
    private byte[] mutate(byte[] original) {
        byte[] body = original.clone();
        int mutations = 1 + random.nextInt(random.nextBoolean() ? 2 : 8);
        for (int m = 0; m < mutations && body.length > 0; m++) {
            int at = random.nextInt(body.length);
            switch (random.nextInt(8)) {
                case 0 -> body[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> body[at] = (byte) random.nextInt(256);
                case 2 -> putClipped(body, at, 2, INTERESTING[random.nextInt(INTERESTING.length)]);
                case 3 -> putClipped(body, at, 4, INTERESTING[random.nextInt(INTERESTING.length)]);
                case 4 -> Arrays.fill(body, at, Math.min(body.length, at + 1 + random.nextInt(6)), (byte) 0xFF);
                case 5 -> {
                    byte[] bad = BAD_UTF8[random.nextInt(BAD_UTF8.length)];
                    System.arraycopy(bad, 0, body, at, Math.min(bad.length, body.length - at));
                }
                case 6 -> body = Arrays.copyOf(body, at);
                default -> {
                    byte[] garbage = new byte[1 + random.nextInt(32)];
                    random.nextBytes(garbage);
                    byte[] longer = Arrays.copyOf(body, body.length + garbage.length);
                    System.arraycopy(garbage, 0, longer, body.length, garbage.length);
                    body = longer;
                }
            }
        }
        return body;
    }

    private static void putClipped(byte[] body, int at, int width, long value) {
        for (int i = 0; i < width && at + i < body.length; i++) {
            body[at + i] = (byte) (value >>> (8 * (width - 1 - i)));
        }
    }

    private byte[] wrongSize(byte[] body) {
        int declared = switch (random.nextInt(4)) {
            case 0 -> body.length + 1 + random.nextInt(64);
            case 1 -> Math.max(0, body.length - 1 - random.nextInt(Math.max(1, body.length)));
            case 2 -> -1 - random.nextInt(Integer.MAX_VALUE);
            default -> Integer.MAX_VALUE - random.nextInt(1 << 20);
        };
        return ByteBuffer.allocate(4 + body.length).putInt(declared).put(body).array();
    }

    private static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }
}
