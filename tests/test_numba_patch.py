"""The guard the package's patches of Numba share (``_core/numba_patch.py``): applied once,
and nothing claimed where the patch finds another Numba."""

from __future__ import annotations

from impulse2d._core.numba_patch import Patch


def test_a_patch_is_applied_once_and_then_reads_installed():
    calls = []

    @Patch
    def install() -> bool:
        """Doc."""
        calls.append(1)
        return True

    assert not install.installed
    assert install() and install() and install.installed
    assert calls == [1]
    assert install.__doc__ == "Doc." and install.__name__ == "install"


def test_a_patch_that_finds_another_numba_is_not_installed_and_is_tried_again():
    calls = []

    @Patch
    def missing_module() -> bool:
        calls.append("import")
        import impulse2d._no_such_module  # noqa: F401
        return True

    @Patch
    def missing_name() -> bool:
        calls.append("name")
        return object().no_such_attribute

    @Patch
    def other_code() -> bool:
        calls.append("check")
        return False

    for install in (missing_module, missing_name, other_code):
        assert install() is False and install() is False and not install.installed
    assert calls == ["import", "import", "name", "name", "check", "check"]


def test_the_packages_patches_share_the_guard():
    from impulse2d._core import arguments, frontend, inliner, ir_text, link_only, overloads

    for module in (arguments, inliner, ir_text, link_only, overloads):
        assert isinstance(module.install, Patch)
        assert module.install() is module.install.installed
    for install in (frontend.install_list_vars, frontend.install_ssa, frontend.install_operators,
                    frontend.install_abi_sizes, frontend.install_error_contexts,
                    frontend.install_live_map, frontend.install_template_order,
                    frontend.install_use_defs, frontend.install_type_checks):
        assert isinstance(install, Patch)
        assert install() is install.installed
