package dev.finegrain.compiler.backend.gpu.mechanism;

/** Where a mechanism keeps a channel's token. */
public enum TokenStorage {
    /** The producer's data word's own lock bit (tiny-lock's shared channels: LDSLK takes token and value together). */
    LOCK_BIT_OF_DATA_WORD,
    /** A ready bit beside the 32-bit value in one 64-bit word, for machines without lock bits. */
    READY_BIT_BESIDE_VALUE,
    /** A word of its own per token (a flag, a mutex, a lock bit of a word, an mbarrier). */
    TOKEN_WORD,
    /** No word at all: the warps synchronise on a hardware barrier. */
    NONE
}
