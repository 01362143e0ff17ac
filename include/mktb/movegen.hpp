// mktb/movegen.hpp - legal move generation and perft.
//
// Moves are generated legal directly (checkers, pins and king safety computed once per node), as
// Stockfish does, because both perft and the tablebase verifier call it at every node.
#pragma once

#include <array>
#include <cstdint>

#include "mktb/position.hpp"

namespace mktb {

// 9 Mets, 2 Rueas, 2 Mas, 2 Khons and a king cannot exceed 100 moves.
using MoveList = BasicMoveList<Move>;

// Every legal move of the side to move.
MoveList legal_moves(const Position& pos);

bool is_checkmate(const Position& pos);
bool is_stalemate(const Position& pos);

// Leaf count of the legal move tree to `depth` plies (bulk-counted at the last ply).
std::uint64_t perft(Position& pos, int depth);

// Parses a UCI move ("e3e4", "d5d6m") against the legal moves of pos; MOVE_NONE when illegal.
Move parse_uci_move(const Position& pos, std::string_view text);

} // namespace mktb
