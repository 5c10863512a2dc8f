"""``boardai models``: the mistakes a user can make with compact, fetch and the manifest are one
line on stderr and exit code 2, and none of them costs a file that was good."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest

from boardai.cli import main
from boardai.learn import store
from tests.learn.test_store import card, manifest_text, tiny_2048, use_store


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("boardai: error: ") and err.count("\n") == 1, err
    return err


@pytest.fixture
def full(tmp_path: Path) -> Path:
    """A full-precision 2048 training file with TC state."""
    from boardai.g2048.train.trainer import TrainConfig, Trainer

    path = tmp_path / "full.npz"
    Trainer(TrainConfig(patterns="0123", tc=True)).save(path)
    return path


def test_compact_will_not_write_over_its_source(
    full: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = full.read_bytes()
    link = tmp_path / "link.npz"
    link.symlink_to(full.name)
    for out in (full, link):
        assert main(["models", "compact", str(full), str(out)]) == 2
        assert "would replace the full one" in one_line(capsys)
    assert full.read_bytes() == before  # the training file is still whole


def test_compact_checks_its_output_before_the_work(
    full: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("compacted before the output was checked")

    monkeypatch.setattr("boardai.learn.model_file.compact_model", never)
    for out, why in (
        (tmp_path, "is a folder, not a file"),
        (full / "c.npz", f"{full} is not a folder"),  # under a file
    ):
        assert main(["models", "compact", str(full), str(out)]) == 2
        assert f"OUT {out}: {why}" in one_line(capsys)


def test_compact_drop_untouched_of_damaged_tc_state_is_one_line(
    full: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The weights read fine, the TC accumulators (read only to drop by) are cut short."""
    damaged = tmp_path / "damaged.npz"
    with zipfile.ZipFile(full) as src, zipfile.ZipFile(damaged, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            dst.writestr(name, data[:200] if name == "extra_tc_a.npy" else data)
    out = tmp_path / "c.npz"
    assert main(["models", "compact", str(damaged), str(out), "--drop-untouched"]) == 2
    assert "damaged.npz: damaged model file" in one_line(capsys)
    assert not out.exists()


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store of the manifest only (as a wheel's), its model verified in the user cache."""
    made = tmp_path / "made"
    made.mkdir()
    model = tiny_2048(made)
    use_store(monkeypatch, tmp_path, [card("tiny", "2048", "ntuple", model)])
    monkeypatch.setenv(store.ENV_URL, "http://127.0.0.1:1/{file}")  # nothing listens there
    store.cache_dir().mkdir(parents=True)
    copy = store.cache_dir() / model.name
    copy.write_bytes(model.read_bytes())
    return copy


def test_a_failed_forced_fetch_keeps_the_good_copy(
    cached: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = cached.read_bytes()
    assert main(["models", "fetch", "tiny", "--force", "--timeout", "5"]) == 2
    assert "cannot download model 'tiny'" in one_line(capsys)
    assert cached.read_bytes() == before
    assert [p.name for p in cached.parent.iterdir()] == [cached.name]  # no download left over
    assert main(["models", "path", "tiny"]) == 0


def test_a_cache_that_cannot_be_written_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_store(monkeypatch, tmp_path, [card("tiny", "2048", "ntuple", tiny_2048(tmp_path))])
    (tmp_path / "tiny-2048.npz").rename(tmp_path / "elsewhere.npz")  # not downloaded
    monkeypatch.setenv(store.ENV_URL, "http://127.0.0.1:1/{file}")
    cache = str(store.cache_dir().parent)
    mkdir = os.mkdir

    def denied(path: object, *args: object, **kwargs: object) -> None:
        if str(path).startswith(cache):  # as a folder of another user's would (root may write)
            raise PermissionError(13, "Permission denied", str(path))
        mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "mkdir", denied)
    assert main(["models", "fetch", "tiny", "--timeout", "5"]) == 2
    err = one_line(capsys)
    assert f"cannot write the model cache {store.cache_dir()}: Permission denied" in err


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ('strength = "strong"\n', "bad manifest entry a: strength is a table"),
        ('url = "http://host/{0}/{file}"\n', "url 'http://host/{0}/{file}' is not a URL template"),
    ],
)
def test_a_manifest_mistake_is_one_line(
    extra: str,
    says: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    buf = io.BytesIO()
    np.save(buf, np.zeros(1))
    (tmp_path / "a.npy").write_bytes(buf.getvalue())
    listed = card("a", "2048", "ntuple", tmp_path / "a.npy")
    del listed["strength"]  # no [model.strength] table: the line below ends the [[model]] one
    text = manifest_text([listed])
    use_store(monkeypatch, tmp_path, [])
    (tmp_path / "models.toml").write_text(extra + text if "url" in extra else text + extra)
    assert main(["models"]) == 2
    assert says in one_line(capsys)
    (tmp_path / "models.toml").write_text("model = 3\n")
    assert main(["models"]) == 2
    assert "the models are [[model]] tables" in one_line(capsys)


def test_a_bad_url_override_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_store(monkeypatch, tmp_path, [card("tiny", "2048", "ntuple", tiny_2048(tmp_path))])
    monkeypatch.setenv(store.ENV_URL, "http://mirror/{file")
    assert main(["models", "show", "tiny"]) == 2
    err = one_line(capsys)
    assert "$BOARDAI_MODELS_URL 'http://mirror/{file' is not a URL template" in err
    assert "models.toml" not in err  # the manifest is not to blame
