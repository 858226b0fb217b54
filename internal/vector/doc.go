// Package vector finds nearest neighbours among float32 vectors, for
// DynamoDB's vector indexes: exact search over any sequence of vectors,
// and an approximate index, an HNSW graph, kept in a key-value store as
// a header record and two records a node. It stands on the standard
// library alone.
//
// # Scores
//
// A Metric scores as DynamoDB's vector search does. Cosine scores
// 1 - cos(a, b), from 0 (same direction) to 2 (opposite), lower first; a
// zero vector on either side scores exactly 1. Euclidean scores the L2
// distance, not squared, lower first. DotProduct scores the inner
// product, higher first, and can be negative. Elements are float32 and
// sums are accumulated in float64; a score saturates at ±MaxFloat32.
// Metric.Better orders two scores.
//
// # Order of results
//
// Every search returns results best first, and equal scores by id
// ascending: this is dynago's tie order (DynamoDB's order of equal
// scores is not deterministic). Exact keeps the best k of the vectors it
// is given in a bounded heap.
//
// # The graph
//
// Graph is the hierarchical navigable small world graph of Malkov and
// Yashunin (2016, "Efficient and robust approximate nearest neighbor
// search using Hierarchical Navigable Small World graphs"). Each node
// has a level drawn from an exponential distribution (the probability of
// reaching level l is M^-l) and a list of neighbours on each level up to
// its own; the entry point is a node of the highest level. A search
// walks greedily from the entry point down to level 1, then searches
// level 0 best first keeping the ef best candidates; it returns the best
// k of them. An insert searches the same way with breadth
// efConstruction on each of its levels, links the new node to at most M
// of the candidates chosen by the method's heuristic (a candidate is
// kept when it is nearer the new node than every candidate kept before
// it), and links each of them back, shrinking any list that overflows
// with the same heuristic. Lists hold at most M neighbours, 2*M on
// level 0.
//
// The parameters: M (default 16) trades memory and insert time for
// recall; efConstruction (default 200) the build time for the graph's
// quality; efSearch (default 100, and an argument of each search) the
// search time for recall. Node ids are the caller's uint64s. A node's
// level is drawn from a hash of the graph's seed and its id, so that the
// same operations build the same graph, and a graph loaded from its
// records goes on exactly as the one that wrote them. Under DotProduct
// the links are chosen by Euclidean distance, since the negated inner
// product is no distance (a node is not the nearest to itself), while
// searches rank by the inner product.
//
// A delete removes its node for good: each node that linked to it gets
// a new list chosen by the same heuristic among its other neighbours and
// the deleted node's, and the entry point moves to a node of the highest
// level left (the lowest id among them). Nothing is left marked deleted.
// After an insert or a delete, a node that lost its last link on level 0
// is taken back by the nearest of its own neighbours, in a free place or
// in place of a neighbour that has another link to it.
//
// The method does not promise that every node stays reachable on level
// 0: with a small M, the heuristic can cut every level-0 link between
// two well-separated clusters. Reconnect links each node the entry point
// cannot reach on level 0 from the nearest reachable node with a free
// place; it walks the whole graph, so it is for now and then.
//
// One writer and any number of searches run at once: Insert and Delete
// take the graph's lock, Search shares it.
//
// # Records
//
// A graph is stored as one header record and, for each node, a vector
// record and a links record, all little-endian, each starting with its
// format's version (2; version 1 kept a node's vector and links in one
// record, so that every link change rewrote the vector); a decoder
// refuses any other version and any malformed record, with an error.
//
// The header: version, metric (1 byte), dimensions, M, efConstruction,
// efSearch (4 bytes each), seed and node count (8 each), whether there
// is an entry point (1), its id (8) and level (1).
//
// A vector record: version, id (8), dimensions (4), the vector's
// float32 values (4 each). It is written once, when its node is
// inserted, and never rewritten: a node's vector does not change (an
// Insert of an id already in the graph with another vector replaces
// the node, and writes its vector record again).
//
// A links record: version, id (8), level (1), then for each level from
// 0 up the number of neighbours (2) and their ids (8 each). It is the
// record a link change rewrites: at most 8 + 16*M bytes on level 0.
//
// Insert, Delete and Reconnect return Changes: the new header when it
// changed, the vector records of the nodes inserted, the links records
// of the nodes written (the inserted node and every node whose lists
// changed) and the ids whose two records to delete. Written in the same
// batch as the item that caused them, they keep the stored records equal
// to the graph's. Load rebuilds a graph from the header, the vector
// records and the links records (two sequences, so that a store reads
// each as one range, in any order within it), without recomputing any
// list or inserting anything, and refuses records that do not make a
// whole graph. If the batch fails, the graph in memory is ahead of the
// store: load it again from the store.
package vector
