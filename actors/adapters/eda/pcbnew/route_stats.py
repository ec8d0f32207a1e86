"""Measures a routed KiCad board: connections left unrouted, tracks and their length, vias, and the power nets' widths.

Usage: route_stats.py BOARD SUMMARY_OUT [OPTIONS_JSON]

BOARD is read with KiCad's own reader (its project beside it gives the net classes). OPTIONS_JSON (a file) may hold
{"power_class": a net class name (default "Power")}. SUMMARY_OUT receives JSON: "unconnected" (KiCad's connectivity),
"connections" (the board's ratsnest connections, routed or not), "tracks", "track_length_mm", "vias", and "power":
the class's track width, its nets, how many of their tracks there are and how many are narrower than the class's width
(null when the board has no such class), and "net_classes": each net's class.
Exit 2 = the board cannot be read.
"""

import json
import sys

import pcbnew


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write("usage: route_stats.py BOARD SUMMARY_OUT [OPTIONS_JSON]\n")
        sys.exit(64)
    options = {}
    if len(argv) == 4:
        with open(argv[3], encoding="utf-8") as f:
            options = json.load(f)
    try:
        board = pcbnew.LoadBoard(argv[1])
    except Exception as err:
        sys.stderr.write((str(err).strip() or "pcbnew cannot read the board") + "\n")
        sys.exit(2)
    board.BuildConnectivity()
    conn = board.GetConnectivity()
    tracks = [t for t in board.GetTracks() if t.GetClass() == "PCB_TRACK"]
    vias = [t for t in board.GetTracks() if t.GetClass() == "PCB_VIA"]

    ns = board.GetDesignSettings().m_NetSettings
    power_class = options.get("power_class", "Power")
    power = None
    if ns.HasNetclass(power_class):
        width = ns.GetNetClassByName(power_class).GetTrackWidth()
        nets = sorted(n.GetNetname() for n in board.GetNetsByNetcode().values()
                      if n.GetNetCode() > 0 and n.GetNetClassName() == power_class)
        mine = [t for t in tracks if t.GetNetname() in nets]
        power = {"netclass": power_class, "width_mm": pcbnew.ToMM(width), "nets": nets, "tracks": len(mine),
                 "narrower": sum(1 for t in mine if t.GetWidth() < width),
                 "min_width_mm": pcbnew.ToMM(min((t.GetWidth() for t in mine), default=0))}
    summary = {
        "unconnected": conn.GetUnconnectedCount(False),
        "tracks": len(tracks),
        "track_length_mm": round(sum(pcbnew.ToMM(t.GetLength()) for t in tracks), 2),
        "vias": len(vias),
        "power": power,
        "net_classes": {n.GetNetname(): n.GetNetClassName() for n in board.GetNetsByNetcode().values()
                        if n.GetNetCode() > 0},
    }
    with open(argv[2], "w", encoding="utf-8") as out:
        json.dump(summary, out)


if __name__ == "__main__":
    main(sys.argv)
