"""Every paginated AWS call is bounded (ops_cli/aws.py ``Aws.each_page``): an answer whose next token never ends stops
after MAX_PAGES pages or MAX_PAGING_SECONDS seconds with one clear line and exit 21, instead of hanging the command
(issue 29: ``handover`` on HyperPod, ``capacity-blocks offerings``/``extend``, ``training-plans extend``, ``cost --usage``).
Against stubbed AWS (the Stubber checks every request against botocore's model); time is the fake clock."""

from __future__ import annotations

from ops_cli.aws import MAX_PAGES
from ops_cli.errors import ExitCode
from tests.ops_cli.test_capacity_blocks import offering
from tests.ops_cli.test_training_plan_extensions import ENV, PLAN_ARN, expect_plan


def endless_history(aws, pages: int) -> None:
    """``pages`` pages of the plan's extension history, every one with a next token."""
    for index in range(pages):
        params = {"TrainingPlanArn": PLAN_ARN} | ({"NextToken": f"page-{index}"} if index else {})
        aws.stub("sagemaker").add_response(
            "describe_training_plan_extension_history",
            {"TrainingPlanExtensions": [], "NextToken": f"page-{index + 1}"},
            params,
        )


def test_given_a_history_whose_next_token_never_ends_then_handover_on_hyperpod_stops_after_the_page_bound(
    aws, run
):
    # given a training plan whose extension history answers every page with one more NextToken
    expect_plan(aws)
    endless_history(aws, MAX_PAGES)
    # when the handover is asked for
    result = run("handover", *ENV)
    # then it stops after MAX_PAGES pages (every stubbed page used, none more asked), with one line and exit 21
    assert result.code == ExitCode.UNEXPECTED_ANSWER == 21, result.stderr
    assert f"{MAX_PAGES} pages, and still a next token" in result.stderr
    assert "Traceback" not in result.stderr and "fix:" in result.stderr


def test_given_pages_that_keep_coming_slowly_then_the_time_bound_ends_the_listing(aws, run, clock):
    # given offerings whose every page takes 200 s (the fake clock) and names a next page
    ec2 = aws.stub("ec2")
    for index in range(2):
        ec2.add_response(
            "describe_capacity_block_offerings",
            {
                "CapacityBlockOfferings": [offering(f"cb-000000000000000{index}", "1.00")],
                "NextToken": f"p{index + 1}",
            },
        )

    def slow(**_):
        clock.now += 200

    aws.on("ec2", "provide-client-params.ec2.DescribeCapacityBlockOfferings", slow)
    # when the offerings are listed
    result = run("capacity-blocks", "offerings", "--env", "example")
    # then the listing stops once it has run past the bound (2 pages, 400 s), not at the page bound
    assert result.code == ExitCode.UNEXPECTED_ANSWER, result.stderr
    assert "2 pages in 400 s, and still a next token" in result.stderr


def test_given_a_short_listing_then_every_page_is_read(aws, run):
    # given offerings on three pages, the last without a next token
    ec2 = aws.stub("ec2")
    for index in range(3):
        answer = {
            "CapacityBlockOfferings": [offering(f"cb-000000000000000{index}", f"{index + 1}.00")]
        }
        if index < 2:
            answer["NextToken"] = f"p{index + 1}"
        ec2.add_response("describe_capacity_block_offerings", answer)
    # when they are listed, then all three are shown
    result = run("capacity-blocks", "offerings", "--env", "example", "--json")
    assert result.code == ExitCode.OK, result.stderr
    assert len(result.json) == 3
