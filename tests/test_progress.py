"""cmtlab.progress: bars can be silenced globally (the book build does) without changing results."""

from cmtlab import progress


def test_disabled_bar_returns_the_iterable(monkeypatch):
    monkeypatch.setenv(progress.ENV_VAR, "0")
    items = [1, 2, 3]
    assert progress.progress(items, desc="x") is items
    assert not progress.enabled(True)
    bar = progress.progress(total=3)
    bar.update(3)
    bar.close()


def test_enabled_bar_writes_to_stderr(monkeypatch, capsys):
    monkeypatch.delenv(progress.ENV_VAR, raising=False)
    assert progress.enabled(True) and not progress.enabled(False)
    assert list(progress.progress(range(3), desc="counting")) == [0, 1, 2]
    assert "counting" in capsys.readouterr().err
