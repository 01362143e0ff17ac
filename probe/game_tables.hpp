// game_tables.hpp - the tables of one game in one directory, by canonical material: written once
// for both games (Makruk's Tablebase and Xiangqi's xq::Tablebase each hold one), over the game's
// file names and opening (a Files policy, below). Private to the probe library.
//
// Invariant: a table is opened at most once per file version. The tables on disk when the set
// was made each have a slot found without a lock (an engine's threads probe them millions of
// times); a table that appears later (the generator writes them one by one) is found behind a
// lock, and a material asked for and absent is remembered, so that an engine asking again and
// again looks at the disk once. A table whose file changed under it (Table::stale()) is opened
// again once whole; the Table it replaces is kept, not freed, while another thread may still
// read through it.
//
// The Files policy gives: `Material` (with parse, name, key, men, is_canonical), `Entry` (what a
// table is read through), `kSuffix` (the file name after the material's), `open(path, material,
// cache, id)` -> std::unique_ptr<Entry> (throws TableError), and `table(entry)` -> const Table&.
#pragma once

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "block_cache.hpp"
#include "tablefile.hpp"

namespace mktb {

template<class Files>
class GameTables {
public:
    using Material = typename Files::Material;
    using Entry = typename Files::Entry;

    // `fixed`: the tables on disk now are all there will be (a prober), so a material without
    // a table is answered without a lock or a look at the disk; otherwise (the generator, which
    // adds tables one by one) a table written later is found too.
    GameTables(std::string dir, std::shared_ptr<BlockCache> cache, bool fixed)
        : dir_(std::move(dir))
        , fixed_(fixed)
        , cache_(std::move(cache)) {
        for (const Material& m : scan(dir_)) {
            slots_.emplace(m.key(), std::make_unique<Slot>(m));
            largestMen_ = std::max(largestMen_, m.men());
        }
    }

    const std::string& dir() const { return dir_; }
    std::string path(const Material& m) const {
        return (std::filesystem::path(dir_) / (m.name() + std::string(Files::kSuffix))).string();
    }
    // Whether a table of this canonical material was on disk when the set was made, and the
    // most men of any table then. Lock-free.
    bool available(const Material& canonical) const { return slots_.contains(canonical.key()); }
    int largest_men() const { return largestMen_; }
    // The materials of the tables on disk when the set was made, by name.
    std::vector<Material> materials() const {
        std::vector<Material> out;
        for (const auto& [key, slot] : slots_) out.push_back(slot->material);
        std::sort(out.begin(), out.end(),
            [](const Material& a, const Material& b) { return a.name() < b.name(); });
        return out;
    }
    // The canonical materials whose tables a directory holds now, by name.
    static std::vector<Material> scan(const std::string& dir) {
        std::vector<Material> out;
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            const std::string file = entry.path().filename().string();
            if (!file.ends_with(Files::kSuffix)) continue;
            const std::string name = file.substr(0, file.size() - Files::kSuffix.size());
            // (Makruk's suffix ends Xiangqi's: "KRvK.xq" parses as no Makruk material.)
            if (const auto m = Material::parse(name); m && m->is_canonical() && m->name() == name)
                out.push_back(*m);
        }
        std::sort(out.begin(), out.end(),
            [](const Material& a, const Material& b) { return a.name() < b.name(); });
        return out;
    }

    // The table of a canonical material, opened on first use; nullptr when its file is absent.
    // Throws TableError when the file is damaged (every time, until a whole one is back).
    const Entry* find(const Material& canonical) const {
        if (auto it = slots_.find(canonical.key()); it != slots_.end()) {
            Slot& slot = *it->second;
            if (const Entry* e = slot.entry.load(std::memory_order_acquire);
                e && !Files::table(*e).stale())
                return e;
            std::lock_guard lock(slot.mutex);
            if (!slot.owned || Files::table(*slot.owned).stale()) {
                slot.entry.store(nullptr, std::memory_order_release);
                std::error_code ec;
                const std::string file = path(canonical);
                if (slot.owned && !std::filesystem::exists(file, ec)) return nullptr; // deleted
                reopen(slot.owned, file, canonical);
                slot.entry.store(slot.owned.get(), std::memory_order_release);
            }
            return slot.owned.get();
        }
        if (fixed_) return nullptr; // absent when the set was made: no lock, no string
        const std::string name = canonical.name();
        std::lock_guard lock(mutex_);
        std::unique_ptr<Entry>& held = later_[name];
        if (held && !Files::table(*held).stale()) return held.get();
        if (missing_.contains(name)) return nullptr;
        const std::string file = path(canonical);
        std::error_code ec;
        if (!std::filesystem::exists(file, ec)) {
            if (!held) missing_.insert(name); // asked again and again: one look at the disk
            return nullptr; // (a table deleted while open: looked for again next time)
        }
        reopen(held, file, canonical);
        return held.get();
    }
    // Opens every table that was on disk when the set was made. Throws TableError when one is
    // damaged.
    void open_all() const {
        for (const auto& [key, slot] : slots_) find(slot->material);
    }

private:
    struct Slot {
        explicit Slot(const Material& m)
            : material(m) { }
        Material material;
        std::atomic<const Entry*> entry { nullptr };
        std::mutex mutex;
        std::unique_ptr<Entry> owned;
    };
    void reopen(std::unique_ptr<Entry>& held, const std::string& file, const Material& m) const {
        std::unique_ptr<Entry> fresh = Files::open(file, m, cache_.get(), cache_->new_table_id());
        if (held) {
            std::lock_guard lock(retiredMutex_);
            retired_.push_back(std::move(held));
        }
        held = std::move(fresh);
    }

    std::string dir_;
    bool fixed_ = false;
    int largestMen_ = 0;
    std::shared_ptr<BlockCache> cache_;
    // The tables on disk when the set was made: a fixed map, read without locks.
    std::unordered_map<std::uint64_t, std::unique_ptr<Slot>> slots_;
    // Tables that appeared later, behind one lock, and the materials found absent.
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::unique_ptr<Entry>> later_;
    mutable std::set<std::string> missing_;
    mutable std::mutex retiredMutex_;
    mutable std::vector<std::unique_ptr<Entry>> retired_; // stale tables replaced
};

} // namespace mktb
