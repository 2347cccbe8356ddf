/* sequences: classifies sequences of different lengths without padding them, with nanograph.
 *
 * The data are made up here, from a fixed seed: sequences of 1 to ~60 tokens from a vocabulary
 * of 64, each of one of 3 classes. A sequence of class c draws each token from "its" group of 16
 * tokens with probability 0.4, from each other class's group with probability 0.1 and from 16
 * neutral tokens otherwise; so a short sequence can be ambiguous, and no classifier is always
 * right.
 *
 * The model is an embedding bag: every token is embedded (one-hot times a matrix E, a dot over
 * the vocabulary axis), passed through tanh, and averaged over its sequence with
 * ng_segment_mean(); a dense layer then gives the class scores. The tokens of a batch lie on one
 * flat axis J, all sequences one after another, and the row splits, an int64 placeholder, say
 * where each sequence starts: no padding anywhere, so the work follows the real tokens. Every
 * batch here holds 32 sequences and 512 tokens (the axes of a compiled computation have fixed
 * lengths; a program with varied batches would compile one computation per token budget), but
 * how those tokens fall into sequences changes from batch to batch.
 *
 * Prints the test accuracy after each epoch; exits with 1 if the last is below 78% (it reaches
 * 82.0%). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanograph/nanograph.h"

enum {
    VOCAB = 64,
    CLASSES = 3,
    EMBED = 16,
    BATCH = 32,         /* sequences per batch */
    TOKENS = 512,       /* tokens per batch, over all its sequences */
    TRAIN_BATCHES = 60, /* 1920 sequences */
    TEST_BATCHES = 20,  /* 640 sequences */
    EPOCHS = 8,
};

typedef struct batch {
    int32_t tokens[TOKENS];
    int64_t splits[BATCH + 1];
    float targets[BATCH][CLASSES]; /* one-hot */
    int32_t labels[BATCH];
} batch_t;

static uint64_t rng_state = 0x5eed5eedull;
static uint64_t next_random(void) { /* splitmix64: the same sequence on every platform */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double uniform(void) {
    return (double)(next_random() >> 11) * 0x1.0p-53;
}

static int compare_int64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* BATCH sequences of at least one token each and TOKENS in all: cut points drawn without
 * repetition in 1 .. TOKENS-1, so lengths vary widely (from 1 to several times the mean). */
static void make_batch(batch_t *b) {
    b->splits[0] = 0;
    b->splits[BATCH] = TOKENS;
    for (int i = 1; i < BATCH;) {
        int64_t cut = 1 + (int64_t)(next_random() % (TOKENS - 1));
        int seen = 0;
        for (int k = 1; k < i; ++k) seen |= b->splits[k] == cut;
        if (!seen) b->splits[i++] = cut;
    }
    qsort(b->splits + 1, BATCH - 1, sizeof(int64_t), compare_int64);
    memset(b->targets, 0, sizeof b->targets);
    for (int s = 0; s < BATCH; ++s) {
        int c = (int)(next_random() % CLASSES);
        b->labels[s] = c;
        b->targets[s][c] = 1;
        for (int64_t j = b->splits[s]; j < b->splits[s + 1]; ++j) {
            double u = uniform();
            int group = u < 0.4 ? c : u < 0.5 ? (c + 1) % CLASSES : u < 0.6 ? (c + 2) % CLASSES : 3;
            b->tokens[j] = group * 16 + (int32_t)(next_random() % 16);
        }
    }
}

int main(void) {
    batch_t *train = malloc(TRAIN_BATCHES * sizeof *train);
    batch_t *test = malloc(TEST_BATCHES * sizeof *test);
    if (!train || !test) return 1;
    for (int i = 0; i < TRAIN_BATCHES; ++i) make_batch(&train[i]);
    for (int i = 0; i < TEST_BATCHES; ++i) make_batch(&test[i]);

    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *J = ng_axis(g, "J", TOKENS), *S = ng_axis(g, "S", BATCH);
    const ng_axis_t *R = ng_axis(g, "R", BATCH + 1), *V = ng_axis(g, "V", VOCAB);
    const ng_axis_t *K = ng_axis(g, "K", EMBED), *C = ng_axis(g, "C", CLASSES);
    ng_op_t *tokens = ng_placeholder(g, NG_INT32, &J, 1, NULL);
    ng_op_t *splits = ng_placeholder(g, NG_INT64, &R, 1, NULL);
    const ng_axis_t *sc[] = {S, C}, *vk[] = {V, K}, *kc[] = {K, C};
    ng_op_t *targets = ng_placeholder(g, NG_FLOAT32, sc, 2, NULL);
    ng_op_t *embedding =
        ng_variable(g, NG_FLOAT32, vk, 2, ng_initializer_uniform(g, NG_FLOAT32, vk, 2, -1, 1, 7));
    ng_op_t *w = ng_variable(g, NG_FLOAT32, kc, 2,
                             ng_initializer_glorot_uniform(g, NG_FLOAT32, kc, 2, &K, 1, 8));
    ng_op_t *b = ng_variable(g, NG_FLOAT32, &C, 1, NULL);

    /* (J, K) per token, (S, K) per sequence, (S, C) scores. */
    ng_op_t *per_token = ng_tanh(g, ng_dot(g, ng_one_hot(g, tokens, V, NG_FLOAT32), embedding));
    ng_op_t *per_sequence = ng_segment_mean(g, per_token, J, splits, S);
    ng_op_t *logits = ng_add(g, ng_dot(g, per_sequence, w), b);
    ng_op_t *loss = ng_mean(
        g, ng_cross_entropy_multi(g, ng_softmax(g, logits, &C, 1), targets, &C, 1), NULL, 0);
    ng_op_t *rate = ng_persistent_tensor(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 0.02));
    ng_op_t *step = ng_adam(g, loss, rate, NULL);
    ng_op_t *predicted = ng_argmax(g, logits, C);
    if (ng_graph_status(g) != NG_OK) {
        fprintf(stderr, "building the graph: %s\n", ng_graph_error(g));
        return 1;
    }

    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_op_t *train_params[] = {tokens, splits, targets}, *eval_params[] = {tokens, splits};
    ng_computation_t *train_step = ng_computation_create(t, &step, 1, train_params, 3);
    ng_computation_t *evaluate = ng_computation_create(t, &predicted, 1, eval_params, 2);
    if (!train_step || !evaluate) {
        fprintf(stderr, "compiling: %s\n", ng_last_error());
        return 1;
    }

    /* Each batch's arrays are wrapped, not copied: the inputs of a run are the batch itself. */
    const int64_t j_shape[] = {TOKENS}, r_shape[] = {BATCH + 1}, sc_shape[] = {BATCH, CLASSES};
    double accuracy = 0;
    for (int epoch = 1; epoch <= EPOCHS; ++epoch) {
        double total_loss = 0;
        for (int i = 0; i < TRAIN_BATCHES; ++i) {
            ng_tensor_t *in[] = {
                ng_tensor_wrap(NG_INT32, j_shape, NULL, 1, train[i].tokens, NULL, NULL),
                ng_tensor_wrap(NG_INT64, r_shape, NULL, 1, train[i].splits, NULL, NULL),
                ng_tensor_wrap(NG_FLOAT32, sc_shape, NULL, 2, train[i].targets, NULL, NULL)};
            ng_tensor_t *out = NULL;
            if (ng_computation_run(train_step, in, 3, &out, 1) != NG_OK) {
                fprintf(stderr, "training: %s\n", ng_last_error());
                return 1;
            }
            total_loss += *(const float *)ng_tensor_data(out);
            ng_tensor_release(out);
            for (int k = 0; k < 3; ++k) ng_tensor_release(in[k]);
        }
        int right = 0;
        for (int i = 0; i < TEST_BATCHES; ++i) {
            ng_tensor_t *in[] = {
                ng_tensor_wrap(NG_INT32, j_shape, NULL, 1, test[i].tokens, NULL, NULL),
                ng_tensor_wrap(NG_INT64, r_shape, NULL, 1, test[i].splits, NULL, NULL)};
            ng_tensor_t *out = NULL;
            if (ng_computation_run(evaluate, in, 2, &out, 1) != NG_OK) {
                fprintf(stderr, "evaluating: %s\n", ng_last_error());
                return 1;
            }
            const int64_t *guess = ng_tensor_data(out);
            for (int s = 0; s < BATCH; ++s) right += guess[s] == test[i].labels[s];
            ng_tensor_release(out);
            for (int k = 0; k < 2; ++k) ng_tensor_release(in[k]);
        }
        accuracy = (double)right / (TEST_BATCHES * BATCH);
        printf("epoch %d: training loss %.4f, test accuracy %.1f%%\n", epoch,
               total_loss / TRAIN_BATCHES, 100 * accuracy);
    }

    ng_computation_destroy(train_step);
    ng_computation_destroy(evaluate);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    free(train);
    free(test);
    return accuracy >= 0.78 ? 0 : 1;
}
