// fuzz_fen.cpp - libFuzzer target for the FEN parser: any input either parses into a legal
// position that round-trips through fen(), or is refused with FenError. Run: scripts/fuzz-fen.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "mktb/movegen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const mktb::Position pos = mktb::Position::from_fen(text);
        if (!pos.validity_error().empty() || !(mktb::Position::from_fen(pos.fen()) == pos))
            std::abort();
        (void)mktb::legal_moves(pos);
    } catch (const mktb::FenError&) { }
    return 0;
}
