"""KiCad DRC of one board: `drc.py <board.kicad_pcb> <out_dir>`.

A fixed script of the eda adapter (actors/adapters/eda/pcbnew.ts runs it sandboxed); the board is data, never code.
Writes <out_dir>/drc.rpt with pcbnew.WriteDRCReport (millimetres, track-to-zone checks on) and prints one JSON line.
"""
import json
import os
import sys
import time

board_path, out_dir = sys.argv[1], sys.argv[2]
started = time.perf_counter()
import pcbnew  # noqa: E402

board = pcbnew.LoadBoard(board_path)
loaded = time.perf_counter()
if board is None:
    raise SystemExit("pcbnew could not load the board")
report = os.path.join(out_dir, "drc.rpt")
ok = pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True)
done = time.perf_counter()
if not ok:
    raise SystemExit("pcbnew could not write the DRC report")
print(
    json.dumps(
        {
            "report_file": report,
            "kicad_version": pcbnew.Version(),
            "load_ms": round((loaded - started) * 1000, 1),
            "drc_ms": round((done - loaded) * 1000, 1),
        }
    )
)
