#pragma once

// Builds the forward graph of a model for one training configuration. The sequence length (or image size) and the
// checkpointing choice shape the graph; the micro-batch does not (sizes are per sample).

#include "graph.h"
#include "modelspec.h"
#include "trainingconfig.h"

namespace headroom {

Graph buildGraph(const ModelSpec& model, const TrainingConfig& config, GraphLayers layers = GraphLayers::All);
// Rebuilds into an existing graph, reusing its memory.
void buildGraph(const ModelSpec& model, const TrainingConfig& config, Graph& out,
                GraphLayers layers = GraphLayers::All);
void buildTransformerGraph(const ModelSpec& model, const TrainingConfig& config, Graph& g,
                           GraphLayers layers = GraphLayers::All);
void buildCnnGraph(const ModelSpec& model, const TrainingConfig& config, Graph& g);

// The head a configuration trains: the model's own unless TrainingConfig::task names another.
HeadKind effectiveHead(const TransformerSpec& t, const TrainingConfig& config);

} // namespace headroom
