"""The eval command's required lines over course questions, as click options."""
from __future__ import annotations

import click

_OPTIONS = (
    click.option("--min-course-answered", type=float, help="Exit 1 if fewer course questions are answered."),
    click.option("--min-course-right", type=float,
                 help="Exit 1 if fewer course questions are right (gold page cited, every keyword, quiz questions)."),
    click.option("--min-course-refused", type=float, help="Exit 1 if fewer off-topic course questions are refused."),
)


def course_options(command):
    for option in reversed(_OPTIONS):
        command = option(command)
    return command
