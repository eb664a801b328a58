"""Deployable units. Each stack is one CloudFormation stack of one environment."""
