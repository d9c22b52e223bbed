"""The Java host's own work, checked by small classes compiled against it. Its JSON reader
(apdp/agents/java/src/apdp/host/Json.java) reads what the referee sends as the JDK would: a number as
``Long.parseLong`` (integers) or ``Double.parseDouble`` read it, bit for bit, also where its own fast
path reads it; strings with escapes and any UTF-8; and it refuses what is not JSON. A network's
shortest paths (logist.topology.Topology) are the same whether its cities are few (scanned) or many
(a queue).

Without a JDK these tests are skipped, saying why, except under CI (CI=true), where they must run.
"""

from __future__ import annotations

import json
import math
import random
import struct
import subprocess
from pathlib import Path

import pytest

from apdp.agents.java.host import host_jar
from apdp.agents.java.jdk import find_jdk

#: Reads JSON lines; writes for each what Json.parse read ("L <long>", "D <double's bits>", or the
#: value written back as JSON) and, for a number, what the JDK's own parsers read from its text.
CHECK = """
package apdp.host;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public final class JsonCheck {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            byte[] bytes = ("  " + line + " ").getBytes(StandardCharsets.UTF_8);
            Object value;
            try {
                value = Json.parse(bytes, 2, bytes.length - 1);
            } catch (RuntimeException e) {
                out.append("refused\\n");
                continue;
            }
            if (args.length > 0) {
                out.append(Json.write(value)).append('\\n');
            } else {
                out.append(show(value)).append(' ').append(show(reference(line))).append('\\n');
            }
        }
        System.out.print(out);
    }

    private static Object reference(String text) {
        if (text.contains(".") || text.contains("e") || text.contains("E")) {
            return Double.parseDouble(text);
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return Double.parseDouble(text);
        }
    }

    private static String show(Object value) {
        if (value instanceof Double) {
            return "D" + Long.toHexString(Double.doubleToRawLongBits((Double) value));
        }
        return value instanceof Long ? "L" + value : "?" + value;
    }
}
"""


#: Builds random networks twice, as they are and with 64 more cities that no road reaches (so that
#: the host searches them with a queue), and writes where the paths between the first cities differ.
PATHS = """
import java.util.Random;

import logist.topology.Topology;
import logist.topology.Topology.City;

public final class PathsCheck {
    public static void main(String[] args) {
        Random random = new Random(18);
        for (int g = 0; g < 400; g++) {
            int n = 2 + random.nextInt(20);
            int roads = n + random.nextInt(3 * n);
            int[][] road = new int[roads][];
            for (int k = 0; k < roads; k++) {
                road[k] = new int[] {random.nextInt(n), random.nextInt(n), random.nextInt(4) * 1000};
            }
            Topology few = build(n, 0, road);
            Topology many = build(n, 64, road);
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    String x = path(few, a, b);
                    String y = path(many, a, b);
                    if (!x.equals(y)) {
                        System.out.println("network " + g + " from " + a + " to " + b + ": " + x + " != " + y);
                    }
                }
            }
        }
    }

    private static Topology build(int n, int more, int[][] roads) {
        Topology.Builder builder = new Topology.Builder();
        for (int i = 0; i < n + more; i++) {
            builder.addCity("c" + i, i, i);
        }
        for (int[] r : roads) {
            builder.addRoute("c" + r[0], "c" + r[1], r[2]);
        }
        return builder.build();
    }

    private static String path(Topology t, int a, int b) {
        City from = t.cities().get(a);
        City to = t.cities().get(b);
        try {
            return from.pathTo(to) + " " + from.distanceUnitsTo(to);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }
}
"""


def _compiled(root: Path, name: str, source: str, package: str = "") -> list[str]:
    """The command that runs the class ``name`` (its ``source``) against the host apdp compiles."""
    jdk = find_jdk()
    jar = host_jar(jdk)
    path = root / package.replace(".", "/") / f"{name}.java"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    done = subprocess.run([str(jdk.javac), "-d", str(root / "out"), "-cp", str(jar), str(path)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return [str(jdk.java), "-Xshare:auto", "-cp", f"{jar}:{root / 'out'}", f"{package}.{name}".lstrip(".")]


@pytest.fixture(scope="module")
def check(tmp_path_factory: pytest.TempPathFactory, java_cache: Path) -> list[str]:
    """The command that runs JsonCheck against the host apdp compiles."""
    return _compiled(tmp_path_factory.mktemp("jsoncheck"), "JsonCheck", CHECK, "apdp.host")


def _run(command: list[str], lines: list[str]) -> list[str]:
    done = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True,
                          encoding="utf-8", timeout=300, check=True)
    return done.stdout.splitlines()


def _numbers() -> list[str]:
    rng = random.Random(22)
    texts = ["0", "-0", "0.0", "-0.0", "7", "-7", "2.5", "0.1", "4.35", "1e5", "1E5", "1e-05", "1.5e+300",
             "2.5e-3", "123456789012345678", "-123456789012345678", "1234567890123456789",
             "99999999999999999999", "9007199254740992.0", "9007199254740993.0", "9007199254740993",
             "1e22", "1e23", "123456789e22", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308",
             "0.013888888888888888", "591.0", "10.0", "100000000000000000000000.0", "00.5", "1.e5"]
    for _ in range(3000):
        kind = rng.random()
        if kind < 0.3:
            value = rng.random() * 10 ** rng.randint(-8, 8)
        elif kind < 0.5:
            value = round(rng.uniform(-1000, 1000), rng.randint(0, 6))
        elif kind < 0.7:
            value = struct.unpack("d", struct.pack("Q", rng.getrandbits(63)))[0]
            if not math.isfinite(value):
                continue
        else:
            texts.append(str(rng.randint(-10 ** rng.randint(1, 19), 10 ** rng.randint(1, 19))))
            continue
        texts.append(repr(value))
    return texts


def test_numbers_read_as_the_jdk_reads_them(check: list[str]) -> None:
    texts = _numbers()
    read = _run(check, texts)
    assert len(read) == len(texts)
    for text, line in zip(texts, read, strict=True):
        ours, jdk = line.split()
        assert ours == jdk, f"{text}: {ours} != {jdk}"


def test_strings_objects_and_arrays_read_back_as_sent(check: list[str]) -> None:
    values = [
        {"type": "bid", "task": {"id": 3, "pickup": "Genève", "delivery": "Zürich", "weight": 6}, "timeout": 2.5},
        ["plain", "quote \" and \\ backslash", "tab\tnew\nline", "é and ü", "漢字", "emoji \U0001F69A",
         "\u2028", "", "\u0001"],
        {"nested": [[], {}, [1, [2, [3]]], None, True, False], "": "empty key"},
    ]
    lines = [json.dumps(v, ensure_ascii=False) for v in values] + [json.dumps(v) for v in values]
    read = _run([*check, "write"], lines)
    assert [json.loads(line) for line in read] == values + values


@pytest.mark.parametrize("text", ['{"a": 1', '[1, 2', '"open', "tru", "nul", "-", "1-2", "{1: 2}", "[1,]",
                                  '{"a" 1}', "1 2", "@", '"\\u12"'])
def test_what_is_not_json_is_refused(check: list[str], text: str) -> None:
    assert _run([*check, "write"], [text]) == ["refused"]


def test_shortest_paths_are_the_same_in_small_and_large_networks(tmp_path: Path, java_cache: Path) -> None:
    command = _compiled(tmp_path, "PathsCheck", PATHS)
    assert _run(command, []) == []
